import { z } from "zod";
import { baseScore, CvssError, severityOf } from "../engine/cvss.js";

/*
 * The template format (YAML, one template per file under services/scanner/templates/). It keeps
 * the shape of community scanner templates — id, metadata, probes with matchers and extractors —
 * reduced to what our engine runs: HTTP requests, and TCP/TLS exchanges.
 */

const oneOrMany = <T extends z.ZodType>(t: T) => z.union([t, z.array(t)]).transform((v) => (Array.isArray(v) ? v : [v]) as z.infer<T>[]);

const DSL_EXPR = /^\s*(status|status_code|size|content_length|body_length|header_length)\s*(==|!=|<=|>=|<|>)\s*(\d+)\s*$/;

/**
 * Builds the schemas, for one load of the templates: a scanner validates its templates at start
 * and then only runs them, and the zod schemas (each with its own methods) held 1.6 MiB of old
 * space in every idle scanner when they were module constants.
 */
export function templateSchemas() {
  const part = z.enum(["body", "header", "all", "status"]).default("body");
  const condition = z.enum(["and", "or"]).default("or");

  const regexString = z.string().superRefine((s, ctx) => {
    try {
      new RegExp(s);
    } catch (err) {
      ctx.addIssue({ code: "custom", message: `invalid regex ${JSON.stringify(s)}: ${(err as Error).message}` });
    }
  });

  /** Any matcher may be inverted. */
  const negative = z.boolean().default(false);

  /** The word and regex matchers search one part of the response for their values (any or all of them). */
  const textSearch = { part, condition, case_insensitive: z.boolean().default(false), negative };

  const matcherSchema = z.discriminatedUnion("type", [
    z.object({ type: z.literal("status"), status: oneOrMany(z.number().int().min(100).max(599)), negative }).strict(),
    z.object({ type: z.literal("word"), words: oneOrMany(z.string().min(1)), ...textSearch }).strict(),
    z.object({ type: z.literal("regex"), regex: oneOrMany(regexString), ...textSearch }).strict(),
    z
      .object({
        type: z.literal("binary"),
        part,
        binary: oneOrMany(z.string().regex(/^([0-9a-fA-F]{2})+$/, "hex bytes")),
        condition,
        negative,
      })
      .strict(),
    z.object({ type: z.literal("size"), size: oneOrMany(z.number().int().min(0)), negative }).strict(),
    z
      .object({
        type: z.literal("dsl"),
        dsl: oneOrMany(z.string().regex(DSL_EXPR, "expression like `size > 100` (status, size, body_length, header_length; == != < <= > >=)")),
        condition: z.enum(["and", "or"]).default("and"),
        negative,
      })
      .strict(),
  ]);

  const extractorSchema = z.discriminatedUnion("type", [
    z
      .object({ type: z.literal("regex"), name: z.string().optional(), part, regex: oneOrMany(regexString), group: z.number().int().min(0).default(0) })
      .strict(),
    /** Header values by name (dashes and underscores are equal, case-insensitive), e.g. `server`, `x_jenkins`. */
    z.object({ type: z.literal("kval"), name: z.string().optional(), kval: oneOrMany(z.string().min(1)) }).strict(),
  ]);

  const probeCommon = {
    matchers_condition: z.enum(["and", "or"]).default("and"),
    matchers: z.array(matcherSchema).min(1),
    extractors: z.array(extractorSchema).default([]),
  };

  const httpProbeSchema = z
    .object({
      method: z.enum(["GET", "HEAD", "POST", "PUT", "OPTIONS", "PATCH", "DELETE", "TRACE"]).default("GET"),
      /** Paths on the service's base URL, tried in order; the first that matches is reported. */
      path: oneOrMany(z.string().startsWith("/")),
      headers: z.record(z.string(), z.string()).default({}),
      body: z.string().optional(),
      max_body_bytes: z.number().int().min(256).max(1_048_576).default(65_536),
      ...probeCommon,
    })
    .strict();

  const socketInputSchema = z
    .object({
      data: z.string(),
      type: z.enum(["text", "hex"]).default("text"),
    })
    .strict()
    .superRefine((i, ctx) => {
      if (i.type === "hex" && !/^([0-9a-fA-F]{2})*$/.test(i.data.replace(/\s+/g, "")))
        ctx.addIssue({ code: "custom", message: "hex input must be pairs of hex digits" });
    });

  /** A TCP (or TLS) exchange: optionally read a banner, send each input, read the answer. */
  const socketProbeSchema = z
    .object({
      /** Read what the server sends first (FTP, SSH, SMTP banners) before sending. */
      read_banner: z.boolean().default(false),
      inputs: z.array(socketInputSchema).default([]),
      read_size: z.number().int().min(1).max(65_536).default(4096),
      read_timeout_ms: z.number().int().min(50).max(30_000).default(3000),
      ...probeCommon,
    })
    .strict()
    .refine((p) => p.read_banner || p.inputs.length > 0, { message: "a socket probe sends inputs or reads a banner (read_banner: true)" });

  const cwe = z.string().regex(/^CWE-\d+$/, "like CWE-200");
  const cve = z.string().regex(/^CVE-\d{4}-\d{4,}$/, "like CVE-2021-44228");

  const templateSchema = z
    .object({
      id: z.string().regex(/^[a-z0-9][a-z0-9-]{2,80}$/, "lowercase letters, digits and dashes"),
      name: z.string().min(3),
      severity: z.enum(["critical", "high", "medium", "low", "info"]),
      description: z.string().min(10),
      impact: z.string().default(""),
      remediation: z
        .object({
          summary: z.string().min(3),
          steps: z.array(z.string()).default([]),
          code_example: z.string().default(""),
          references: z.array(z.url()).default([]),
        })
        .strict(),
      classification: z
        .object({
          cwe: z.array(cwe).default([]),
          cve: z.array(cve).default([]),
          cvss_vector: z.string().default(""),
          cvss_score: z.number().min(0).max(10).default(0),
        })
        .strict()
        .default({ cwe: [], cve: [], cvss_vector: "", cvss_score: 0 }),
      references: z.array(z.url()).default([]),
      tags: z.array(z.string().regex(/^[a-z0-9-]+$/)).default([]),
      /** Which services to probe: by identified protocol name, or by port when unidentified. */
      services: z
        .object({ names: z.array(z.string()).default([]), ports: z.array(z.number().int().min(1).max(65535)).default([]) })
        .strict()
        .optional(),
      /** Mask `KEY=value` secrets in the evidence (the finding must not spread the secret further). */
      redact_evidence: z.boolean().default(false),
      /** `version_match` for templates that read a version and infer the flaw from it (banners). */
      confidence: z.enum(["confirmed", "version_match"]).default("confirmed"),
      http: z.array(httpProbeSchema).optional(),
      tcp: z.array(socketProbeSchema).optional(),
      tls: z.array(socketProbeSchema).optional(),
    })
    .strict()
    .superRefine((t, ctx) => {
      const probes = (t.http?.length ?? 0) + (t.tcp?.length ?? 0) + (t.tls?.length ?? 0);
      if (!probes) ctx.addIssue({ code: "custom", message: "a template needs at least one http, tcp or tls probe" });
      if ((t.tcp?.length || t.tls?.length) && !t.services)
        ctx.addIssue({ code: "custom", path: ["services"], message: "tcp/tls templates name the services they apply to" });
      const { cvss_vector, cvss_score } = t.classification;
      if (cvss_vector) {
        try {
          const computed = baseScore(cvss_vector);
          if (Math.abs(computed - cvss_score) > 0.001)
            ctx.addIssue({
              code: "custom",
              path: ["classification", "cvss_score"],
              message: `cvss_score ${cvss_score} but the vector computes to ${computed}`,
            });
          if (severityOf(computed) !== t.severity && t.severity !== "info")
            ctx.addIssue({ code: "custom", path: ["severity"], message: `severity ${t.severity} but CVSS ${computed} is ${severityOf(computed)}` });
        } catch (err) {
          if (err instanceof CvssError) ctx.addIssue({ code: "custom", path: ["classification", "cvss_vector"], message: err.message });
          else throw err;
        }
      } else if (cvss_score !== 0) ctx.addIssue({ code: "custom", path: ["classification", "cvss_score"], message: "a cvss_score needs its cvss_vector" });
      else if (t.severity !== "info")
        ctx.addIssue({ code: "custom", path: ["classification", "cvss_vector"], message: "non-info templates state a CVSS vector" });
    });

  return { template: templateSchema, matcher: matcherSchema, extractor: extractorSchema, httpProbe: httpProbeSchema, socketProbe: socketProbeSchema };
}

type Schemas = ReturnType<typeof templateSchemas>;
export type Template = z.infer<Schemas["template"]>;
export type Matcher = z.infer<Schemas["matcher"]>;
export type Extractor = z.infer<Schemas["extractor"]>;
export type HttpProbe = z.infer<Schemas["httpProbe"]>;
export type SocketProbe = z.infer<Schemas["socketProbe"]>;
export { DSL_EXPR };
