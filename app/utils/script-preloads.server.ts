import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";

/**
 * React hoists <Scripts>' `<link rel="modulepreload">` tags to the top of the
 * head, ahead of everything the first paint needs and at the priority of a
 * blocking script: on a slow link 125 KB of scripts then compete with the
 * document and its images, and when they win the race they are evaluated and
 * hydrate before the first paint, which waits for them (docs/decisions/0800).
 * This leaves them out of the served head: the scripts are then found where
 * <Scripts> puts its module script, at the end of the body, after the content
 * is in, and load through their imports (React adds the preload tags again when
 * it hydrates, for modules already loaded). Nothing after `</head>` is
 * touched; the head is held back until it is complete, so a tag split across
 * two chunks is still found.
 */
export function withoutScriptPreloads(): Transform {
  let head = "";
  let done = false;
  const decoder = new StringDecoder("utf8");
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (done) return callback(null, chunk);
      head += decoder.write(chunk);
      const end = head.indexOf("</head>");
      if (end === -1) return callback();
      done = true;
      const out =
        head.slice(0, end).replace(/<link rel="modulepreload"[^>]*>/g, "") +
        head.slice(end);
      head = "";
      callback(null, out);
    },
    flush(callback) {
      callback(null, done ? undefined : head + decoder.end());
    },
  });
}
