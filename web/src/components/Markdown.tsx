import ReactMarkdown, { defaultUrlTransform } from "react-markdown";

/*
 * Markdown from the API (the AI analysis' prose) as React elements: no HTML is ever parsed into
 * the page (`skipHtml` drops raw HTML, react-markdown never uses innerHTML), only the few
 * elements analysis text needs are kept, and links go to http(s) only and open apart.
 */
const ALLOWED = ["p", "code", "pre", "strong", "em", "a", "ul", "ol", "li"];

const safeUrl = (url: string) => (/^https?:\/\//i.test(url) ? defaultUrlTransform(url) : "");

export function Markdown({ text }: { text: string }) {
  return (
    <div className="md">
      <ReactMarkdown
        skipHtml
        allowedElements={ALLOWED}
        unwrapDisallowed
        urlTransform={safeUrl}
        components={{
          a: ({ href, children }) =>
            href ? (
              <a href={href} rel="noreferrer noopener" target="_blank">
                {children}
              </a>
            ) : (
              <span>{children}</span>
            ),
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
