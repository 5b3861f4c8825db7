/* Configuration strings (UEFI 2.10, 35.2.1): the reading of <ConfigHdr>, <ConfigRequest>
 * and <ConfigResp>, bounded by the length given. Every field is checked for what the
 * grammar allows (32 hex digits of GUID, 4 a NAME character, 2 a PATH byte, numbers of at
 * most 16 digits) and the parser refuses anything else, saying where. */
#include <ember/core/hii_config.h>
#include <ember/lib/str.h>

#define GUID_HEX_DIGITS 32
#define NUMBER_DIGITS_MAX 16
#define ALT_ID_DIGITS 4

void hii_cfg_init(struct hii_cfg *c, const CHAR16 *s, size_t len)
{
	c->s = s;
	c->len = len;
	c->at = 0;
	c->problem = NULL;
}

bool hii_cfg_done(const struct hii_cfg *c)
{
	return c->at >= c->len;
}

static int hex_digit(CHAR16 ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static bool fail(struct hii_cfg *c, size_t at, const char *problem)
{
	c->at = at;
	c->problem = problem;
	return false;
}

/* Whether the text at c->at starts with the ASCII key (e.g. "GUID="). */
static bool key_at(const struct hii_cfg *c, size_t at, const char *key)
{
	size_t n = str8_len(key);

	if (c->len - at < n)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (c->s[at + i] != (CHAR16)key[i])
			return false;
	}
	return true;
}

/* The length of the value starting at at: up to '&' or the end. */
static size_t value_length(const struct hii_cfg *c, size_t at)
{
	size_t end = at;

	while (end < c->len && c->s[end] != '&')
		end++;
	return end - at;
}

/* Reads "KEY=" and its value at c->at; the value's place in *at_out, *len_out. */
static bool field(struct hii_cfg *c, const char *key, size_t *at_out, size_t *len_out)
{
	if (!key_at(c, c->at, key))
		return fail(c, c->at, "a configuration field is missing");
	*at_out = c->at + str8_len(key);
	*len_out = value_length(c, *at_out);
	c->at = *at_out + *len_out;
	return true;
}

/* Steps over the '&' between fields; at the end of the string there is none. */
static bool separator(struct hii_cfg *c, bool last_allowed)
{
	if (c->at == c->len)
		return last_allowed ? true : fail(c, c->at, "configuration string ends early");
	if (c->s[c->at] != '&' || c->at + 1 == c->len)
		return fail(c, c->at, "'&' expected between configuration fields");
	c->at++;
	return true;
}

static bool all_hex(const CHAR16 *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (hex_digit(s[i]) < 0)
			return false;
	}
	return true;
}

bool hii_cfg_hex_bytes(const CHAR16 *s, size_t len, UINT8 *out, size_t room)
{
	if (len != 2 * room || !all_hex(s, len))
		return false;
	for (size_t i = 0; i < room; i++)
		out[i] = (UINT8)(hex_digit(s[2 * i]) << 4 | hex_digit(s[2 * i + 1]));
	return true;
}

/* A hex number of 1 to 16 digits. */
static bool number(const CHAR16 *s, size_t len, UINT64 *out)
{
	UINT64 v = 0;

	if (!len || len > NUMBER_DIGITS_MAX || !all_hex(s, len))
		return false;
	for (size_t i = 0; i < len; i++)
		v = v << 4 | (UINT64)hex_digit(s[i]);
	*out = v;
	return true;
}

bool hii_cfg_value(const CHAR16 *s, size_t len, UINT8 *out, size_t width)
{
	if (!len || len > 2 * width || !all_hex(s, len))
		return false;
	mem_set(out, 0, width);
	/* The last digit is the low nibble of byte 0. */
	for (size_t i = 0; i < len; i++) {
		size_t nibble = len - 1 - i;

		out[nibble / 2] |= (UINT8)(hex_digit(s[i]) << (nibble % 2 ? 4 : 0));
	}
	return true;
}

void hii_cfg_put_hex(CHAR16 *out, const UINT8 *bytes, size_t n, bool reversed)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		UINT8 b = bytes[reversed ? n - 1 - i : i];

		out[2 * i] = (CHAR16)digits[b >> 4];
		out[2 * i + 1] = (CHAR16)digits[b & 0xf];
	}
}

bool hii_cfg_name_is(const CHAR16 *s, const struct hii_cfg_hdr *h, const CHAR16 *name)
{
	size_t n;

	if (!name)
		return true;
	n = str16_len(name);
	if (h->name_len != 4 * n)
		return false;
	for (size_t i = 0; i < n; i++) {
		UINT8 unit[2];

		if (!hii_cfg_hex_bytes(s + h->name_at + 4 * i, 4, unit, 2) ||
		    (CHAR16)(unit[0] << 8 | unit[1]) != name[i])
			return false;
	}
	return true;
}

/* An ALTCFG=<4 hex> right after the header. */
static bool alt_config(struct hii_cfg *c, struct hii_cfg_hdr *h)
{
	size_t at, len;
	UINT64 id;

	h->has_alt = false;
	if (c->at == c->len || !key_at(c, c->at + 1, "ALTCFG="))
		return true;
	c->at++;
	if (!field(c, "ALTCFG=", &at, &len))
		return false;
	if (len != ALT_ID_DIGITS || !number(c->s + at, len, &id))
		return fail(c, at, "ALTCFG is not 4 hex digits");
	h->has_alt = true;
	h->alt_id = (UINT16)id;
	return true;
}

bool hii_cfg_header(struct hii_cfg *c, struct hii_cfg_hdr *h)
{
	size_t at, len;
	UINT8 guid[sizeof(EFI_GUID)];

	/* The '&' before the next request of a <Multi...> string. */
	if (c->at && key_at(c, c->at, "&GUID="))
		c->at++;
	h->start = c->at;
	if (!field(c, "GUID=", &at, &len))
		return false;
	if (len != GUID_HEX_DIGITS || !hii_cfg_hex_bytes(c->s + at, len, guid, sizeof(guid)))
		return fail(c, at, "GUID is not 32 hex digits");
	mem_copy(&h->guid, guid, sizeof(guid));
	if (!separator(c, false) || !field(c, "NAME=", &h->name_at, &h->name_len))
		return false;
	if (h->name_len % 4 || !all_hex(c->s + h->name_at, h->name_len))
		return fail(c, h->name_at, "NAME is not 4 hex digits a character");
	if (!separator(c, false) || !field(c, "PATH=", &h->path_at, &h->path_len))
		return false;
	if (!h->path_len || h->path_len % 2 || !all_hex(c->s + h->path_at, h->path_len))
		return fail(c, h->path_at, "PATH is not 2 hex digits a byte");
	return alt_config(c, h);
}

static int element_fail(struct hii_cfg *c, size_t at, const char *problem)
{
	fail(c, at, problem);
	return -1;
}

/* &OFFSET=..&WIDTH=..[&VALUE=..] at c->at (just after its '&'). */
static int block_element(struct hii_cfg *c, struct hii_cfg_elem *e)
{
	size_t at, len;

	e->block = true;
	field(c, "OFFSET=", &at, &len); /* the caller saw the key */
	if (!number(c->s + at, len, &e->offset) || e->offset > 0xffffffffu)
		return element_fail(c, at, "OFFSET is not a hex number below 2^32");
	if (!separator(c, false) || !field(c, "WIDTH=", &at, &len))
		return -1;
	if (!number(c->s + at, len, &e->width) || !e->width || e->width > 0xffff)
		return element_fail(c, at, "WIDTH is not a number from 1 to 0xffff");
	e->has_value = c->at < c->len && key_at(c, c->at + 1, "VALUE=");
	if (!e->has_value)
		return 1;
	c->at++;
	field(c, "VALUE=", &e->value_at, &e->value_len);
	if (!e->value_len || e->value_len > 2 * e->width ||
	    !all_hex(c->s + e->value_at, e->value_len))
		return element_fail(c, e->value_at, "VALUE is not a hex number of WIDTH bytes");
	return 1;
}

/* &LABEL[=VALUE] of a name/value storage (35.2.1 <NvConfig>). */
static int label_element(struct hii_cfg *c, struct hii_cfg_elem *e)
{
	size_t end = c->at + value_length(c, c->at);

	e->block = false;
	e->label_at = c->at;
	e->label_len = 0;
	while (e->label_at + e->label_len < end && c->s[e->label_at + e->label_len] != '=')
		e->label_len++;
	if (!e->label_len)
		return element_fail(c, c->at, "empty configuration label");
	e->has_value = e->label_at + e->label_len < end;
	e->value_at = e->label_at + e->label_len + (e->has_value ? 1 : 0);
	e->value_len = end - e->value_at;
	c->at = end;
	return 1;
}

int hii_cfg_element(struct hii_cfg *c, struct hii_cfg_elem *e)
{
	if (c->at == c->len || key_at(c, c->at, "&GUID="))
		return 0;
	if (!separator(c, false))
		return -1;
	e->start = c->at;
	if (key_at(c, c->at, "OFFSET="))
		return block_element(c, e);
	if (key_at(c, c->at, "WIDTH=") || key_at(c, c->at, "VALUE=") || key_at(c, c->at, "NAME=") ||
	    key_at(c, c->at, "PATH=") || key_at(c, c->at, "ALTCFG="))
		return element_fail(c, c->at, "configuration field out of place");
	return label_element(c, e);
}
