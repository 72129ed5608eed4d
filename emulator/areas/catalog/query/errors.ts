// The query layer's errors are the contract's (contract/catalog/query-errors.ts): the request
// schema raises them for q's syntax and the parameters, this layer for q's fields and orderBy.
export {
  QueryError,
  invalidValue,
  parseError,
  tooComplex,
  type QueryErrorCode,
  type QueryErrorDetails,
} from "../../../../contract/catalog/query-errors.ts";
