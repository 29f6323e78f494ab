import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

// @ts-expect-error: a plain .mjs build script, no type declarations
import { OUTPUT, generate } from "../scripts/gen-protocol.mjs";

describe("generated protocol types", () => {
  it("match what the server's schema and event catalogue generate now", async () => {
    const fresh: string = await generate();
    const committed = readFileSync(OUTPUT as string, "utf8");
    // On failure: run `npm run gen:protocol` in webview/ and review the diff.
    expect(committed).toBe(fresh);
  }, 60_000);
});
