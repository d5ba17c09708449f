// The little of Node that the unit tests use to read the modules' sources (tests/sockets.test.js); the
// pages run in browsers, so the project has no @types/node.
declare module "node:fs" {
  export function readFileSync(path: string, encoding: "utf8"): string;
  export function readdirSync(
    path: string,
    options: { withFileTypes: true },
  ): { name: string; isDirectory(): boolean }[];
}
declare module "node:path" {
  export function join(...parts: string[]): string;
  export function relative(from: string, to: string): string;
}
interface ImportMeta {
  readonly dirname: string;
}
