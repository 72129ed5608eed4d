// Card Data query layer: `q` grammar, orderBy, select/include/distinct/language/product_type.
export { QueryError, type QueryErrorCode, type QueryErrorDetails } from "./errors.ts";
export {
  CARD_FIELDS,
  POKEMON_CARD_FIELDS,
  ONEPIECE_CARD_FIELDS,
  EXPANSION_FIELDS,
  SEALED_FIELDS,
  SORT_ALIASES,
  LANGUAGE_PINNING_FIELDS,
  fieldsFor,
  sealedPrice,
  type FieldDef,
  type FieldSchema,
  type RecordOf,
  type Resource,
} from "./fields.ts";
export {
  MAX_DEPTH,
  MAX_QUERY_LENGTH,
  MAX_TERMS,
  parseQuery,
  type QueryNode,
  type TermNode,
} from "../../../../contract/catalog/query-grammar.ts";
export { compileQuery, compileParsed, pinsLanguage, type CompiledQuery, type Matcher } from "./compile.ts";
export { DEFAULT_ORDER_BY, MAX_ORDER_KEYS, compileOrderBy, parseOrderBy, type SortSpec, type Sorter } from "./order.ts";
export {
  SELECTABLE_FIELDS,
  parseSelect,
  applySelect,
  effectiveLanguages,
  languageScope,
  languageAllowed,
  parseDistinct,
  parseInclude,
  parseLanguage,
  parseProductTypes,
  type IncludeOptions,
} from "./params.ts";
