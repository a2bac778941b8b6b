export { deletePattern, findPattern, getPattern, isPublicCatalogFile, listPatterns, publicCatalogFile, publicPatternIndex, savePattern } from "./catalog";
export { parsePatternFileName, PATTERN_CATALOG_PATH, PATTERN_INDEX_PATH, PATTERN_INDEX_URI, PATTERN_RESOURCE_ROOT } from "./paths";
export { builtinPatterns } from "./builtin";
export { parsePatternMarkdown } from "./markdown";
