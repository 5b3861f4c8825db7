/* Configuration strings of HII (UEFI 2.10, 35.2.1) as outside data: <ConfigHdr>
 * (GUID=..&NAME=..&PATH=..), then elements (&OFFSET=..&WIDTH=..[&VALUE=..] or &LABEL[=..]),
 * several such requests joined by '&' in a <Multi...> string. Pure logic, bounded by the
 * length given (the string need not be terminated inside it), so the unit tests and the
 * fuzzer call it with any text; the routing protocol (core/hii/config_routing.c) maps each
 * problem to EFI_INVALID_PARAMETER with Progress at the offset the parser reports. */
#ifndef EMBER_CORE_HII_CONFIG_H
#define EMBER_CORE_HII_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <efi/types.h>

/* A configuration string being read: s[0..len), the parser at `at`. problem says what
 * was wrong (and `at` where) once a function has failed. */
struct hii_cfg {
	const CHAR16 *s;
	size_t len, at;
	const char *problem;
};

/* The <ConfigHdr> of one request: its GUID decoded, NAME and PATH as hex text. */
struct hii_cfg_hdr {
	size_t start; /* where "GUID=" is */
	EFI_GUID guid;
	size_t name_at, name_len; /* 4 hex digits a CHAR16 */
	size_t path_at, path_len; /* 2 hex digits a byte */
	bool has_alt;		  /* an &ALTCFG=<4 hex> follows the header */
	UINT16 alt_id;
};

/* One element of a request or response body. */
struct hii_cfg_elem {
	size_t start;	      /* where OFFSET= (or the label) is */
	bool block;	      /* OFFSET/WIDTH; else a name/value label */
	UINT64 offset, width; /* of a block element */
	bool has_value;	      /* VALUE= (or label=) present */
	size_t value_at, value_len;
	size_t label_at, label_len; /* of a name/value element */
};

/* Starts reading s[0..len). */
void hii_cfg_init(struct hii_cfg *c, const CHAR16 *s, size_t len);

/* Whether the whole string has been read. */
bool hii_cfg_done(const struct hii_cfg *c);

/* Reads a <ConfigHdr> (and an ALTCFG after it) at c->at: false with c->problem set when it
 * is not one. */
bool hii_cfg_header(struct hii_cfg *c, struct hii_cfg_hdr *h);

/* Reads the next element of the current request: 1 with *e filled, 0 at the end of the
 * request (the end of the string, or the '&' before the next GUID=), -1 on a problem. */
int hii_cfg_element(struct hii_cfg *c, struct hii_cfg_elem *e);

/* Decodes 2*room hex digits of s[at..at+len) as bytes in order (PATH); false when len is
 * not 2*room or a digit is not hex. */
bool hii_cfg_hex_bytes(const CHAR16 *s, size_t len, UINT8 *out, size_t room);

/* Decodes the VALUE of a block element into width bytes, little-endian (the text is the
 * number, most significant digit first, at most 2*width digits): false when it does not
 * fit or is not hex. */
bool hii_cfg_value(const CHAR16 *s, size_t len, UINT8 *out, size_t width);

/* Writes bytes as hex: in order (forward) or as a little-endian number (reversed).
 * out must hold 2*n units; no terminator. */
void hii_cfg_put_hex(CHAR16 *out, const UINT8 *bytes, size_t n, bool reversed);

/* Whether the NAME hex of a header spells name (UCS-2, terminated); a NULL name matches
 * any. */
bool hii_cfg_name_is(const CHAR16 *s, const struct hii_cfg_hdr *h, const CHAR16 *name);

#endif
