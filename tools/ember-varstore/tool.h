/* ember-varstore: inspects and edits a variable store file offline with the firmware's
 * own store code (varstore/). Shared declarations of its files. */
#ifndef EMBER_VARSTORE_TOOL_H
#define EMBER_VARSTORE_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ember/core/varstore.h>

/* The store file, loaded into memory and mounted (store.c). */
struct tool_store {
	const char *path;
	UINT8 *bytes;
	struct flash_ram flash;
	struct var_service svc;
	void *mem;
	bool dirty; /* write back at the end */
};

/* Loads and mounts path; create: a missing file becomes a new store. Exits on errors. */
void store_open(struct tool_store *t, const char *path, bool create);
/* A new, empty store in t (for "format"). */
void store_format(struct tool_store *t, const char *path);
/* Writes the bytes back (to a temporary file renamed over the original) when dirty. */
int store_close(struct tool_store *t);

/* Text conversions (text.c). */
/* Parses a GUID ("global" or 8-4-4-4-12); false when malformed. */
bool parse_guid(const char *text, EFI_GUID *guid);
/* Parses "nv,bs,rt,hr" (or a number); false when malformed. */
bool parse_attributes(const char *text, UINT32 *attributes);
/* "NV,BS,RT" etc. */
void format_attributes(UINT32 attributes, char *out, size_t size);
/* UTF-8 to a terminated UCS-2 name (malloc'd); NULL when empty or too long. */
CHAR16 *name_from_utf8(const char *text);
/* A name as UTF-8 (static buffer; escaped: '\uXXXX' for anything not printable ASCII
 * and for '\' and spaces, when escape). */
const char *name_to_text(const CHAR16 *name, bool escape);
/* Parses a name written by name_to_text(escape) (malloc'd); NULL when malformed. */
CHAR16 *name_from_escaped(const char *text);
/* Hex digits (spaces and ':' allowed between bytes) to bytes (malloc'd); false when
 * malformed. */
bool parse_hex(const char *text, UINT8 **data, size_t *size);

/* enroll's input readers (enroll_input.c). */
/* Whether data is one DER SEQUENCE filling size bytes with TBSCertificate, the algorithm
 * and the signature's BIT STRING. */
bool enroll_der_certificate(const UINT8 *data, size_t size);
/* Decodes base64 from text to end (whitespace skipped) into out (room for the text's
 * length); the size, or -1 when malformed. */
long enroll_base64_decode(const char *text, const char *end, UINT8 *out);
/* 64 hex digits to 32 bytes; false otherwise. */
bool enroll_parse_sha256(const char *text, UINT8 *hash);

/* Commands (commands.c, transfer.c, bench.c); each returns the exit status. */
int cmd_list(struct tool_store *t);
int cmd_get(struct tool_store *t, int argc, char **argv);
int cmd_set(struct tool_store *t, int argc, char **argv);
int cmd_delete(struct tool_store *t, int argc, char **argv);
int cmd_export(struct tool_store *t, int argc, char **argv);
int cmd_import(struct tool_store *t, int argc, char **argv);
int cmd_enroll(struct tool_store *t, int argc, char **argv);
int cmd_bench(void);

/* Prints "ember-varstore: " and the message, returns 1 (or exits 2 for usage). */
int tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void tool_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The status name of an EFI_STATUS. */
const char *status_text(EFI_STATUS status);

#endif
