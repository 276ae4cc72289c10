// Public surface of the exchange engine. The host imports only from here.
export {
  bigintFromJson,
  commandFromJson,
  commandToJson,
  eventFromJson,
  eventToJson,
  toPlainJson,
} from './codec.js';
export { Engine, type EngineOptions, InvariantViolation } from './engine.js';
export { hashString, StringHasher } from './hash.js';
export { JsonTextPiecesReader, jsonTextPieces } from './snapshotText.js';
export * from './types.js';
