// Static checks of openapi/openapi.json beyond the linter: its patterns for
// numbers written as digits accept exactly the numbers its integer schemas
// allow (the server takes either form for `page` and `pageSize`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const doc = JSON.parse(readFileSync(new URL("../../openapi/openapi.json", import.meta.url), "utf8"));
const schemas = doc.components.schemas;

// Numbers around every power of ten and every prefix of the maximum, where
// a hand-written pattern goes wrong first.
function candidates(max) {
  const values = new Set([0n, 1n, 2n, max - 1n, max, max + 1n, max * 10n]);
  const digits = max.toString();
  for (let i = 1; i <= digits.length + 1; i++) {
    const power = 10n ** BigInt(i);
    for (const delta of [-1n, 0n, 1n]) values.add(power + delta);
  }
  for (let i = 1; i <= digits.length; i++) {
    const prefix = BigInt(digits.slice(0, i));
    const rest = 10n ** BigInt(digits.length - i);
    for (const delta of [-1n, 0n, 1n]) {
      for (const fill of [0n, rest - 1n]) values.add((prefix + delta) * rest + fill);
    }
  }
  return [...values].filter((v) => v >= 0n);
}

for (const [digits, integer] of [["PageDigits", "Page"], ["PageSizeDigits", "PageSize"]]) {
  test(`${digits} matches exactly the values of ${integer}`, () => {
    const pattern = new RegExp(schemas[digits].pattern, "u");
    const { minimum, maximum } = schemas[integer];
    const [min, max] = [BigInt(minimum), BigInt(maximum)];
    let checked = 0;
    for (const value of candidates(max)) {
      for (const text of [value.toString(), `00${value}`]) {
        assert.equal(pattern.test(text), value >= min && value <= max, `${digits} on ${text}`);
        checked++;
      }
    }
    assert.ok(checked > 50, `${checked} values`);
    for (const text of ["", "+1", "-1", "1.0", " 1", "1 ", "1e3", "0x1", "\u0661"]) {
      assert.equal(pattern.test(text), false, `${digits} on ${JSON.stringify(text)}`);
    }
  });
}
