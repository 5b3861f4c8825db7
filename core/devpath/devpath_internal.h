/* Shared pieces of the device-path text conversions: a growable buffer, the output helpers
 * used by node printers, and the argument helpers used by node parsers. */
#ifndef CORE_DEVPATH_INTERNAL_H
#define CORE_DEVPATH_INTERNAL_H

#include <ember/core/devpath.h>
#include <ember/lib/guids.h>

/* ---- Growable byte buffer (pool memory); once an allocation fails it stays failed ---- */

struct dp_buf {
	UINT8 *data;
	UINTN size, cap;
	bool failed;
};

void dp_buf_put(struct dp_buf *b, const void *p, UINTN n);
/* Drops everything after size bytes (used to undo a partial node). */
void dp_buf_truncate(struct dp_buf *b, UINTN size);
/* Hands over the contents (NULL if an allocation failed) and resets the buffer. */
void *dp_buf_take(struct dp_buf *b);
void dp_buf_free(struct dp_buf *b);

/* Appends one node: a header for type/subtype, then body_len bytes of body (which starts
 * after the header). Fails (buffer marked failed) if the node exceeds 64 KiB. */
void dp_buf_node(struct dp_buf *b, UINT8 type, UINT8 subtype, const void *body, UINTN body_len);
/* Appends a complete fixed-size node (header included in node), setting its header. */
void dp_buf_fixed(struct dp_buf *b, void *node, UINTN size, UINT8 type, UINT8 subtype);
/* Starts a node whose body is appended piecemeal; dp_buf_node_end() sets its length. */
UINTN dp_buf_node_begin(struct dp_buf *b, UINT8 type, UINT8 subtype);
bool dp_buf_node_end(struct dp_buf *b, UINTN start);

/* ---- Unaligned little-endian reads from node bytes ---- */

UINT16 dp_rd16(const UINT8 *p);
UINT32 dp_rd32(const UINT8 *p);
UINT64 dp_rd64(const UINT8 *p);
void dp_rdguid(EFI_GUID *guid, const UINT8 *p);
/* True when the GUID at p (unaligned) equals *guid. */
bool dp_guid_is(const UINT8 *p, const EFI_GUID *guid);

/* The vendor GUIDs the text forms name come from lib/guids.c. */

/* ---- Text output ---- */

struct dp_out {
	struct dp_buf buf; /* CHAR16 text, not terminated until taken */
	bool display_only, shortcuts;
};

void dp_out_printf(struct dp_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dp_out_ascii(struct dp_out *o, const char *s);
void dp_out_char16(struct dp_out *o, const CHAR16 *s, UINTN n);
/* Bytes as characters U+0000..U+00FF (CHAR8 strings of nodes). */
void dp_out_bytes(struct dp_out *o, const UINT8 *s, UINTN n);
/* Two upper-case hex digits per byte. */
void dp_out_hex(struct dp_out *o, const UINT8 *p, UINTN n);
void dp_out_guid(struct dp_out *o, const UINT8 *p);
/* An 8-byte SAM-4 array, byte 0 first, as one 0x-prefixed number. */
void dp_out_be8(struct dp_out *o, const UINT8 *p);
/* An EISA ID as "PNP0A03", "0" for zero, else 0x hex when its letters are not A..Z. */
void dp_out_eisa(struct dp_out *o, UINT32 id);
void dp_out_ipv4(struct dp_out *o, const UINT8 *addr, UINT16 port);
void dp_out_ipv6(struct dp_out *o, const UINT8 *addr, UINT16 port);

/* Safety of node strings for text (count characters of width 1 or 2 bytes, little-endian):
 * raw: can be a node's only, unsplit parameter (no NUL; parentheses nest without closing
 * below the node's own); quoted: can sit between double quotes (raw, and no '"');
 * arg: can be a bare comma-separated parameter (raw, no ',' '=' '"', no outer spaces). */
bool dp_text_raw_safe(const UINT8 *s, UINTN count, UINTN width);
bool dp_text_quoted_safe(const UINT8 *s, UINTN count, UINTN width);
bool dp_text_arg_safe(const UINT8 *s, UINTN count, UINTN width);
/* True when the NUL-terminated string at s fills exactly n bytes (terminator last). */
bool dp_cstr_exact(const UINT8 *s, UINTN n);
/* Writes Ven<kind>(GUID[,data]); false when len is too short for a vendor node. */
bool dp_print_vendor(struct dp_out *o, const UINT8 *n, UINTN len, const char *kind);
/* Writes the SASSATA,Location,Connect,DriveBay parameters of a SAS topology word. */
void dp_print_sas_topology(struct dp_out *o, UINT16 info);

/* A printer writes the named text of one node (len bytes at node) and returns true, or
 * returns false when the named form cannot carry the node exactly (the caller then writes
 * the generic form). */
typedef bool (*dp_printer)(struct dp_out *o, const UINT8 *node, UINTN len);

struct dp_printer_entry {
	UINT8 type, subtype;
	dp_printer print;
};

/* Tables ending with a NULL printer. */
extern const struct dp_printer_entry dp_printers_hw[];
extern const struct dp_printer_entry dp_printers_msg[];
extern const struct dp_printer_entry dp_printers_net[];
extern const struct dp_printer_entry dp_printers_media[];

/* ---- Text input ---- */

/* A slice of the caller's text (not terminated). */
struct dp_str {
	const CHAR16 *s;
	UINTN n;
};

#define DP_MAX_ARGS 8

struct dp_args {
	struct dp_str raw;	      /* everything between the parentheses */
	struct dp_str v[DP_MAX_ARGS]; /* parameters by position, trimmed */
	bool given[DP_MAX_ARGS];      /* false when absent or empty */
	UINTN ctx;		      /* the table entry's context value */
	const EFI_GUID *guid;	      /* the table entry's GUID, if any */
};

/* Parsers append exactly one node to out and return true, or return false for bad text. */
typedef bool (*dp_parser)(const struct dp_args *a, struct dp_buf *out);

#define DP_PARSE_RAW 1 /* no splitting or trimming: the whole content is parameter 0 */

struct dp_parser_entry {
	const char *name;
	const char *params; /* comma-separated parameter names, for "Name=value" */
	dp_parser parse;
	UINTN ctx;
	const EFI_GUID *guid;
	UINT8 flags;
};

extern const struct dp_parser_entry dp_parsers_hw[];
extern const struct dp_parser_entry dp_parsers_msg[];
extern const struct dp_parser_entry dp_parsers_net[];
extern const struct dp_parser_entry dp_parsers_media[];

/* True when s has the form KnownName(...), i.e. would parse as a device node. */
bool dp_text_is_node(const CHAR16 *s, UINTN n);

/* Splits off the next comma-separated piece of *rest (commas inside quotes or parentheses do
 * not split); false when *rest was exhausted. */
bool dp_next_piece(struct dp_str *rest, struct dp_str *piece, bool *more);

/* Scalar conversions of a parameter; all refuse trailing garbage and overflow. */
bool dp_str_u64(struct dp_str s, UINT64 max, UINT64 *v); /* decimal, or hex after 0x */
bool dp_str_hex_u64(struct dp_str s, UINT64 *v);	 /* hex, optional 0x */
bool dp_str_eq(struct dp_str s, const char *word);	 /* ASCII, case-insensitive */
bool dp_str_guid(struct dp_str s, EFI_GUID *guid);
/* Pairs of hex digits into dst (at most max bytes); *n gets the byte count. */
bool dp_str_hexdump(struct dp_str s, UINT8 *dst, UINTN max, UINTN *n);
bool dp_str_eisa(struct dp_str s, UINT32 *id); /* "PNP0A03", or an integer */
bool dp_str_ipv4(struct dp_str s, UINT8 addr[4], UINT16 *port);
bool dp_str_ipv6(struct dp_str s, UINT8 addr[16], UINT16 *port);
/* Strips leading and trailing spaces. */
struct dp_str dp_str_trim(struct dp_str s);
/* Strips one pair of enclosing double quotes. */
struct dp_str dp_str_unquote(struct dp_str s);

/* True when parameter i was written (empty text counts as absent). */
static inline bool dp_arg_given(const struct dp_args *a, UINTN i)
{
	return i < DP_MAX_ARGS && a->given[i];
}

/* A keyword and the value it stands for. */
struct dp_kw {
	const char *word;
	UINT64 value;
};

/* Optional integer parameter i no larger than max: *v keeps its default when absent. */
bool dp_arg_u64(const struct dp_args *a, UINTN i, UINT64 max, UINT64 *v);
/* Required integer parameter. */
bool dp_arg_req_u64(const struct dp_args *a, UINTN i, UINT64 max, UINT64 *v);
/* Optional parameter: one of n keywords (case-insensitive) or an integer up to max. */
bool dp_arg_kw(const struct dp_args *a, UINTN i, const struct dp_kw *kw, UINTN n, UINT64 max,
	       UINT64 *v);
/* Integer parameter stored as an 8-byte SAM-4 array, byte 0 most significant. */
bool dp_arg_be8(const struct dp_args *a, UINTN i, bool required, UINT8 out[8]);
bool dp_arg_req_guid(const struct dp_args *a, UINTN i, EFI_GUID *guid);
/* Appends the characters of s as bytes (each must be <= U+00FF), then a NUL if nul. */
bool dp_buf_put_str8(struct dp_buf *b, struct dp_str s, bool nul);
/* Decodes a hex dump straight into the buffer. */
bool dp_buf_put_hexdump(struct dp_buf *b, struct dp_str s);
/* Appends Ven*(GUID[,data]) from parameters 0 and 1. */
bool dp_parse_vendor(const struct dp_args *a, struct dp_buf *out, UINT8 type, UINT8 subtype);

#endif
