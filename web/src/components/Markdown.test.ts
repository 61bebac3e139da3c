import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./Markdown.js";

const html = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe("the console's markdown", () => {
  it("renders the analysis' inline code, code blocks and links, with no backticks left", () => {
    expect(html("In `/etc/redis/redis.conf`, set `requirepass <a long random secret>`")).toBe(
      '<div class="md"><p>In <code>/etc/redis/redis.conf</code>, set <code>requirepass &lt;a long random secret&gt;</code></p></div>',
    );
    expect(html('In the Apache virtual host:\n\n```\n<FilesMatch "^\\.">\n  Require all denied\n</FilesMatch>\n```')).toContain(
      "<pre><code>&lt;FilesMatch &quot;^\\.&quot;&gt;\n  Require all denied\n&lt;/FilesMatch&gt;\n</code></pre>",
    );
    expect(html("Advisories: <https://www.openssh.com/security.html>")).toContain(
      '<a href="https://www.openssh.com/security.html" rel="noreferrer noopener" target="_blank">https://www.openssh.com/security.html</a>',
    );
    expect(html("**Critical** severity")).toBe('<div class="md"><p><strong>Critical</strong> severity</p></div>');
  });

  it("never lets HTML or script URLs through", () => {
    const out = html(
      'Hi <img src=x onerror="alert(1)"> <script>alert(2)</script> [x](javascript:alert(3)) ![i](https://evil.test/p.png)\n\n<iframe src="https://evil.test"></iframe>',
    );
    expect(out).not.toMatch(/<img|<script|<iframe|javascript:|onerror/i);
    expect(out).not.toContain("evil.test");
    expect(html("# Heading\n\n| a |\n|---|")).not.toMatch(/<h1|<table/);
  });
});
