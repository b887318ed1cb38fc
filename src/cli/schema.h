/* schema.h - the JSON Schema of envpreflight/1 (draft 2020-12), built into
 * the binary from src/schema/envpreflight-1.schema.json so that
 * `envpreflight --schema` prints exactly the file the tests validate
 * every report against. */
#ifndef EP_SCHEMA_H
#define EP_SCHEMA_H

extern const char schema_text[];

#endif
