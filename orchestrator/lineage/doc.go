// Package lineage keeps the schema history of each published contract:
// its keys, the type of each, when each key appeared, and a schema
// version that counts breaking changes.
//
// The first publication of a contract is schema version 1. Each later
// publication that removes a key, moves one to the other section or
// changes its type incompatibly (shape.Compare) is the next version; a
// publication that only adds keys keeps the version. A key keeps the time
// and producer version it first appeared with for as long as it stays.
//
// Schemas are JSON files in the state directory,
// contract-schemas/<client>/<env>/<contract>.json, written atomically.
package lineage
