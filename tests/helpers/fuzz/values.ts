// The odd values a fuzz request is built from, each with a short label for the report.
import type { Random } from "./random";

export type Labelled<T> = { label: string; value: T };

const LIMITS = { title: 200, description: 500, metadataKey: 64, metadataValue: 256, label: 100, passcodeMin: 4, passcodeMax: 256 };

/** Strings around a length limit, in ASCII and in characters that are several UTF-8 bytes or two UTF-16 units. */
function aroundLimit(random: Random, limit: number): Labelled<string> {
  const length = limit + random.pick([-1, 0, 1, 2]);
  const unit = random.pick(["a", "é", "😀", "\u0301"]);
  return { label: `len-${length}-${unit === "a" ? "ascii" : "multibyte"}`, value: unit.repeat(Math.max(length, 0)) };
}

export function oddString(random: Random, limit?: number): Labelled<string> {
  return random.weighted<() => Labelled<string>>([
    [3, () => ({ label: "nul", value: `a\u0000b` })],
    [1, () => ({ label: "only-nul", value: "\u0000" })],
    [2, () => ({ label: "lone-high-surrogate", value: "x\ud800y" })],
    [2, () => ({ label: "lone-low-surrogate", value: "\udfff" })],
    [1, () => ({ label: "rtl-override", value: "abc\u202edcba\u202c" })],
    [1, () => ({ label: "emoji-zwj", value: "👩‍👩‍👧‍👦🏳️‍🌈" })],
    [1, () => ({ label: "bom", value: "\ufeffbom" })],
    [1, () => ({ label: "noncharacter", value: "\uffff\ufffe" })],
    [1, () => ({ label: "control-chars", value: "\u0001\u0007\u001b[31m\u007f" })],
    [1, () => ({ label: "crlf", value: "a\r\nb: c" })],
    [1, () => ({ label: "empty", value: "" })],
    [1, () => ({ label: "whitespace", value: " \t\n\u00a0\u2028\u3000" })],
    [1, () => ({ label: "html", value: "<script>alert(1)</script>\"'&" })],
    [1, () => ({ label: "sql", value: "' OR 1=1; --\\" })],
    [1, () => ({ label: "percent", value: "%zz%00%" })],
    [1, () => ({ label: "combining", value: "e" + "\u0301".repeat(300) })],
    [1, () => ({ label: "long-10k", value: "x".repeat(10_000) })],
    [3, () => aroundLimit(random, limit ?? random.pick(Object.values(LIMITS)))],
  ])();
}

export function oddJsonValue(random: Random, limit?: number): Labelled<unknown> {
  return random.weighted<() => Labelled<unknown>>([
    [6, () => oddString(random, limit)],
    [1, () => ({ label: "null", value: null })],
    [1, () => ({ label: "true", value: true })],
    [1, () => ({ label: "zero", value: 0 })],
    [1, () => ({ label: "negative", value: -1 })],
    [1, () => ({ label: "float", value: 1.5 })],
    [1, () => ({ label: "max-safe+2", value: 9_007_199_254_740_993 })],
    [1, () => ({ label: "1e308", value: 1e308 })],
    [1, () => ({ label: "int32-max+1", value: 2_147_483_648 })],
    [1, () => ({ label: "array", value: ["a", 1] })],
    [1, () => ({ label: "empty-object", value: {} })],
    [1, () => ({ label: "object", value: { a: { b: "c" } } })],
    [1, () => ({ label: "number-string", value: "12" })],
  ])();
}

/** Metadata keys of every shape the key rules have to judge. */
export function metadataKey(random: Random): Labelled<string> {
  return random.pick<Labelled<string>>([
    { label: "plain", value: "project" },
    { label: "upper", value: "PROJECT" },
    { label: "empty", value: "" },
    { label: "__proto__", value: "__proto__" },
    { label: "constructor", value: "constructor" },
    { label: "toString", value: "toString" },
    { label: "hasOwnProperty", value: "hasOwnProperty" },
    { label: "dotted", value: "a.b.c" },
    { label: "leading-dot", value: ".a" },
    { label: "trailing-dash", value: "a-" },
    { label: "double-dot", value: "a..b" },
    { label: "len-64", value: "k".repeat(64) },
    { label: "len-65", value: "k".repeat(65) },
    { label: "kelvin", value: "\u212a" },
    { label: "unicode", value: "ключ" },
    { label: "nul", value: "a\u0000b" },
    { label: "space", value: "a b" },
    { label: "brackets", value: "a[b]" },
    { label: "equals", value: "a=b" },
    { label: "ampersand", value: "a&b" },
    { label: "percent", value: "a%zz" },
    { label: "lone-surrogate", value: "\ud800" },
  ]);
}

export function metadataMap(random: Random): Labelled<unknown> {
  return random.weighted<() => Labelled<unknown>>([
    [4, () => {
      const key = metadataKey(random);
      return { label: `key:${key.label}`, value: { [key.value]: "v" } };
    }],
    [3, () => {
      const value = oddJsonValue(random, LIMITS.metadataValue);
      return { label: `value:${value.label}`, value: { project: value.value } };
    }],
    [1, () => ({ label: "11-keys", value: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, "v"])) })],
    [1, () => ({ label: "10-keys", value: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, "v"])) })],
    [1, () => ({ label: "case-duplicate", value: { Env: "a", env: "b" } })],
    [1, () => ({ label: "not-object", value: random.pick(["a=b", ["a", "b"], 5, true]) })],
  ])();
}

/** Text that is not the JSON the endpoint expects, or not JSON at all. */
export function badJsonText(random: Random): Labelled<string> {
  return random.pick<Labelled<string>>([
    { label: "empty", value: "" },
    { label: "whitespace", value: " \n\t " },
    { label: "truncated", value: '{"title":' },
    { label: "trailing-comma", value: '{"title":"t",}' },
    { label: "single-quotes", value: "{'title':'t'}" },
    { label: "bare-word", value: "undefined" },
    { label: "nan", value: '{"page":NaN}' },
    { label: "null", value: "null" },
    { label: "string", value: '"{}"' },
    { label: "number", value: "1e999" },
    { label: "array", value: "[]" },
    { label: "bom", value: '\ufeff{"title":"t","html":"x"}' },
    { label: "duplicate-keys", value: '{"title":"a","title":1,"html":"x","html":null}' },
    { label: "escaped-lone-surrogate", value: '{"title":"\\ud800","html":"\\udfff","passcode":"\\ud83d\\ude00\\ud83d"}' },
    { label: "escaped-nul", value: '{"title":"\\u0000","html":"\\u0000","passcode":"\\u0000\\u0000\\u0000\\u0000","label":"\\u0000"}' },
    { label: "deep-nesting", value: "[".repeat(5000) + "]".repeat(5000) },
    { label: "deep-object", value: '{"metadata":'.repeat(2000) + "{}" + "}".repeat(2000) },
    { label: "big-number", value: '{"page":1' + "0".repeat(400) + "}" },
    { label: "proto-pollution", value: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},"title":"t","html":"x"}' },
    { label: "jsonrpc-garbage", value: '{"jsonrpc":"2.0","id":{},"method":[],"params":"x"}' },
    { label: "two-values", value: '{"title":"t"}{"html":"x"}' },
    { label: "comment", value: '{/*c*/"title":"t"}' },
  ]);
}

/** Path segments to put where a slug, version or token id belongs. */
export function oddSegment(random: Random): Labelled<string> {
  return random.pick<Labelled<string>>([
    { label: "pct-invalid", value: "%zz" },
    { label: "pct-lone", value: "%" },
    { label: "pct-truncated", value: "abc%2" },
    { label: "pct-nul", value: "abc%00def" },
    { label: "pct-slash", value: "a%2Fb" },
    { label: "pct-dotdot", value: "%2e%2e" },
    { label: "pct-overlong", value: "%C0%AF" },
    { label: "pct-surrogate", value: "%ED%A0%80" },
    { label: "pct-ff", value: "%FF%FE" },
    { label: "pct-rtl", value: "%E2%80%AEabc" },
    { label: "pct-emoji", value: "%F0%9F%98%80" },
    { label: "dot", value: "." },
    { label: "dotdot", value: ".." },
    { label: "empty", value: "" },
    { label: "raw-unicode", value: "ß✓😀" },
    { label: "upper", value: "ABCDEFGHIJKL" },
    { label: "short", value: "abc12" },
    { label: "len-64", value: "a".repeat(64) },
    { label: "len-65", value: "a".repeat(65) },
    { label: "len-5000", value: "a".repeat(5000) },
    { label: "semicolon", value: "abc;def=1" },
    { label: "number", value: random.pick(["0", "-1", "1e1", "0x1", "01", "2147483647", "2147483648", "99999999999999999999", "1.0", "%31", "١", "１"]) },
    { label: "hex", value: random.pick(["000000000000", "ffffffffffff", "FFFFFFFFFFFF", "abcdef12345", "abcdef1234567"]) },
  ]);
}

/** Extra query-string text, appended raw. */
export function oddQuery(random: Random): Labelled<string> {
  return random.pick<Labelled<string>>([
    { label: "pct-invalid-value", value: "page=%zz" },
    { label: "pct-invalid-name", value: "%zz=1" },
    { label: "pct-truncated", value: "a=%E0%A4%A" },
    { label: "pct-nul", value: "sortBy=%00" },
    { label: "repeated", value: "page=1&page=2&pageSize=1&pageSize=500" },
    { label: "empty-pairs", value: "&&=&==&" },
    { label: "unknown-param", value: "colour=red" },
    { label: "metadata-bare", value: "metadata=x" },
    { label: "metadata-dot-empty", value: "metadata.=x" },
    { label: "metadata-nested-dot", value: "metadata.a.b=1&metadata.A.B=2" },
    { label: "metadata-proto", value: "metadata.__proto__=x&metadata.constructor=y" },
    { label: "metadata-bracket", value: "metadata[project]=alpha" },
    { label: "metadata-bracket-empty", value: "metadata[]=x" },
    { label: "metadata-bracket-nested", value: "metadata[a][b]=x" },
    { label: "metadata-bracket-open", value: "metadata[=x&metadata]=y" },
    { label: "metadata-bracket-escaped", value: "metadata%5Bproject%5D=alpha" },
    { label: "metadata-value-nul", value: "metadata.project=%00" },
    { label: "metadata-value-surrogate", value: "metadata.project=%ED%A0%80" },
    { label: "metadata-value-long", value: `metadata.project=${"v".repeat(257)}` },
    { label: "metadata-key-long", value: `metadata.${"k".repeat(65)}=v` },
    { label: "metadata-many", value: Array.from({ length: 50 }, (_, i) => `metadata.k${i}=v`).join("&") },
    { label: "page-huge", value: "page=99999999999999999999" },
    { label: "page-int32", value: `page=${random.pick(["2147483647", "2147483648", "0", "-1", "1.5", "1e3", " 1", "+1"])}` },
    { label: "pagesize-edge", value: `pageSize=${random.pick(["200", "201", "0", "abc", ""])}` },
    { label: "sort-odd", value: `sortBy=${random.pick(["CREATED_AT", "title", "__proto__", ""])}&sortOrder=${random.pick(["ASC", "up", ""])}` },
    { label: "v-odd", value: `v=${random.pick(["0", "-1", "1.0", "1e1", "0x1", "99999999999", "%zz", "", "1&v=2"])}` },
    { label: "token-odd", value: `token=${random.pick(["", "%00", "%zz", "a".repeat(8000), "hd_x&token=y"])}` },
    { label: "code-odd", value: `code=${random.pick(["", "%00", "BCDF-GHJK", "bcdfghjk", "%zz", "😀", "a".repeat(3000)])}` },
    { label: "long-query", value: `q=${"x".repeat(8000)}` },
    { label: "unicode-raw", value: "q=ß😀" },
    { label: "plus-space", value: "page=+1+" },
    { label: "callback-url", value: `callbackUrl=${random.pick(["%zz", "javascript:alert(1)", "//evil.example", "http://[::1", "%", "http://a b"])}` },
  ]);
}
