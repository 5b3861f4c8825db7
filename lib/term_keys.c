/* Terminal input decoding: UTF-8, control characters and the escape sequences that
 * xterm, vt220, rxvt and the Linux console send for special keys (ECMA-48 CSI and SS3
 * syntax), turned into UEFI scan codes and characters (UEFI 2.10, 12.2 and 12.3). */
#include <ember/lib/util.h>
#include <ember/lib/term_keys.h>

#define ESC 0x1b
#define REPLACEMENT_CHARACTER 0xfffd

enum parse_result { PARSE_NEED_MORE, PARSE_INVALID, PARSE_DONE };

/* What one parse step found at the start of the pending bytes. */
struct parse {
	size_t used;
	bool has_key;
	struct term_key key;
};

static void set_scan(struct parse *p, UINT16 scan, UINT32 shift_state)
{
	p->has_key = scan != SCAN_NULL;
	p->key = (struct term_key){.scan = scan, .shift_state = shift_state};
}

static void set_char(struct parse *p, CHAR16 c, UINT32 shift_state)
{
	p->has_key = true;
	p->key = (struct term_key){.unicode = c, .shift_state = shift_state};
}

/* xterm's modifier parameter: 1 + (shift 1, alt 2, ctrl 4, meta 8). */
static UINT32 modifier_state(UINT32 param)
{
	UINT32 bits, state = EFI_SHIFT_STATE_VALID;

	if (param < 2)
		return 0;
	bits = param - 1;
	if (bits & 1)
		state |= EFI_LEFT_SHIFT_PRESSED;
	if (bits & 2)
		state |= EFI_LEFT_ALT_PRESSED;
	if (bits & 4)
		state |= EFI_LEFT_CONTROL_PRESSED;
	if (bits & 8)
		state |= EFI_LEFT_LOGO_PRESSED;
	return state;
}

/* The final letter of CSI or SS3 sequences shared by both forms. */
static UINT16 letter_scan(UINT8 final)
{
	switch (final) {
	case 'A':
		return SCAN_UP;
	case 'B':
		return SCAN_DOWN;
	case 'C':
		return SCAN_RIGHT;
	case 'D':
		return SCAN_LEFT;
	case 'H':
		return SCAN_HOME;
	case 'F':
		return SCAN_END;
	case 'P':
		return SCAN_F1;
	case 'Q':
		return SCAN_F2;
	case 'R':
		return SCAN_F3;
	case 'S':
		return SCAN_F4;
	default:
		return SCAN_NULL;
	}
}

/* CSI n ~ (vt220 editing keys and function keys; 7/8 are rxvt's Home/End). */
static UINT16 tilde_scan(UINT32 n)
{
	static const UINT16 table[] = {
	    [1] = SCAN_HOME,	[2] = SCAN_INSERT,    [3] = SCAN_DELETE, [4] = SCAN_END,
	    [5] = SCAN_PAGE_UP, [6] = SCAN_PAGE_DOWN, [7] = SCAN_HOME,	 [8] = SCAN_END,
	    [11] = SCAN_F1,	[12] = SCAN_F2,	      [13] = SCAN_F3,	 [14] = SCAN_F4,
	    [15] = SCAN_F5,	[17] = SCAN_F6,	      [18] = SCAN_F7,	 [19] = SCAN_F8,
	    [20] = SCAN_F9,	[21] = SCAN_F10,      [23] = SCAN_F11,	 [24] = SCAN_F12,
	};

	return n < ARRAY_SIZE(table) ? table[n] : SCAN_NULL;
}

static bool is_final(UINT8 c)
{
	return c >= 0x40 && c <= 0x7e;
}

static bool is_digit(UINT8 c)
{
	return c >= '0' && c <= '9';
}

/* Reads up to two numeric parameters "p1;p2" (missing ones stay 0). */
static void csi_params(const UINT8 *b, size_t len, UINT32 param[2])
{
	size_t k = 0;

	param[0] = param[1] = 0;
	for (size_t i = 0; i < len && k < 2; i++) {
		if (b[i] == ';')
			k++;
		else if (is_digit(b[i]) && param[k] < 10000)
			param[k] = param[k] * 10 + (b[i] - '0');
	}
}

static void csi_key(const UINT8 *params, size_t plen, UINT8 final, struct parse *p)
{
	UINT32 param[2];

	/* Private sequences (mouse reports, device attributes) are not keys. */
	if (plen && params[0] >= '<' && params[0] <= '?')
		return;
	csi_params(params, plen, param);
	if (final == '~')
		set_scan(p, tilde_scan(param[0]), modifier_state(param[1]));
	else if (final == 'Z')
		set_char(p, CHAR_TAB, EFI_SHIFT_STATE_VALID | EFI_LEFT_SHIFT_PRESSED);
	else
		set_scan(p, letter_scan(final), modifier_state(param[1]));
}

/* ESC [ ... : parameters 0x30-0x3f, intermediates 0x20-0x2f, one final byte. */
static enum parse_result parse_csi(const UINT8 *b, size_t len, struct parse *p)
{
	size_t i = 2, params_end;

	if (len < 3)
		return PARSE_NEED_MORE;
	if (b[2] == '[') { /* Linux console F1-F5: ESC [ [ A..E */
		if (len < 4)
			return PARSE_NEED_MORE;
		if (!is_final(b[3]))
			return PARSE_INVALID;
		p->used = 4;
		if (b[3] >= 'A' && b[3] <= 'E')
			set_scan(p, (UINT16)(SCAN_F1 + (b[3] - 'A')), 0);
		return PARSE_DONE;
	}
	while (i < len && b[i] >= 0x30 && b[i] <= 0x3f)
		i++;
	params_end = i;
	while (i < len && b[i] >= 0x20 && b[i] <= 0x2f)
		i++;
	if (i >= len)
		return PARSE_NEED_MORE;
	if (!is_final(b[i]))
		return PARSE_INVALID;
	p->used = i + 1;
	if (params_end == i) /* intermediates make it something other than a key */
		csi_key(b + 2, params_end - 2, b[i], p);
	return PARSE_DONE;
}

/* Application keypad keys in SS3 form: ESC O p..y are 0-9, j..o are * + , - . / */
static CHAR16 keypad_char(UINT8 final)
{
	static const char keys[] = "*+,-./0123456789";

	return final >= 'j' && final <= 'y' ? (CHAR16)keys[final - 'j'] : 0;
}

/* ESC O [modifier] final: xterm's cursor keys in application mode and F1-F4. */
static enum parse_result parse_ss3(const UINT8 *b, size_t len, struct parse *p)
{
	size_t i = 2;
	UINT32 modifier = 0;

	while (i < len && is_digit(b[i]) && i < 4)
		modifier = modifier * 10 + (b[i++] - '0');
	if (i >= len)
		return PARSE_NEED_MORE;
	if (!is_final(b[i]))
		return PARSE_INVALID;
	p->used = i + 1;
	if (b[i] == 'M')
		set_char(p, CHAR_CARRIAGE_RETURN, 0);
	else if (keypad_char(b[i]))
		set_char(p, keypad_char(b[i]), 0);
	else
		set_scan(p, letter_scan(b[i]), modifier_state(modifier));
	return PARSE_DONE;
}

static enum parse_result parse_escape(const UINT8 *b, size_t len, struct parse *p)
{
	if (len < 2)
		return PARSE_NEED_MORE;
	if (b[1] == '[')
		return parse_csi(b, len, p);
	if (b[1] == 'O')
		return parse_ss3(b, len, p);
	return PARSE_INVALID;
}

/* One UTF-8 character; characters beyond the BMP have no CHAR16 and become U+FFFD. */
static enum parse_result parse_utf8(const UINT8 *b, size_t len, struct parse *p)
{
	size_t need;
	UINT32 cp, lo = 0x80, hi = 0xbf;

	if (b[0] >= 0xc2 && b[0] <= 0xdf)
		need = 1, cp = b[0] & 0x1f;
	else if (b[0] >= 0xe0 && b[0] <= 0xef)
		need = 2, cp = b[0] & 0x0f;
	else if (b[0] >= 0xf0 && b[0] <= 0xf4)
		need = 3, cp = b[0] & 0x07;
	else
		return PARSE_INVALID;
	/* The second byte's range rules out overlong forms, surrogates and > U+10FFFF. */
	if (b[0] == 0xe0)
		lo = 0xa0;
	else if (b[0] == 0xed)
		hi = 0x9f;
	else if (b[0] == 0xf0)
		lo = 0x90;
	else if (b[0] == 0xf4)
		hi = 0x8f;
	for (size_t i = 1; i <= need; i++) {
		if (i >= len)
			return PARSE_NEED_MORE;
		if (b[i] < (i == 1 ? lo : 0x80) || b[i] > (i == 1 ? hi : 0xbf))
			return PARSE_INVALID;
		cp = (cp << 6) | (b[i] & 0x3f);
	}
	p->used = need + 1;
	set_char(p, cp > 0xffff ? REPLACEMENT_CHARACTER : (CHAR16)cp, 0);
	return PARSE_DONE;
}

/* A single byte below 0x80 other than ESC. */
static void parse_ascii(UINT8 c, struct parse *p)
{
	p->used = 1;
	if (c == 0x08 || c == 0x7f)
		set_char(p, CHAR_BACKSPACE, 0);
	else if (c == '\t')
		set_char(p, CHAR_TAB, 0);
	else if (c == '\r' || c == '\n')
		set_char(p, CHAR_CARRIAGE_RETURN, 0);
	else if (c >= 0x01 && c <= 0x1a) /* Ctrl-A .. Ctrl-Z */
		set_char(p, c, EFI_SHIFT_STATE_VALID | EFI_LEFT_CONTROL_PRESSED);
	else if (c != 0)
		set_char(p, c, 0);
}

static enum parse_result parse(const UINT8 *b, size_t len, struct parse *p)
{
	*p = (struct parse){0};
	if (b[0] == ESC)
		return parse_escape(b, len, p);
	if (b[0] >= 0x80)
		return parse_utf8(b, len, p);
	parse_ascii(b[0], p);
	return PARSE_DONE;
}

/* The first byte of something that cannot complete, taken on its own. */
static void parse_lone(UINT8 c, struct parse *p)
{
	*p = (struct parse){.used = 1};
	if (c == ESC)
		set_scan(p, SCAN_ESC, 0);
	else
		set_char(p, REPLACEMENT_CHARACTER, 0);
}

static void consume(struct term_keys *d, size_t n)
{
	for (size_t i = n; i < d->len; i++)
		d->buf[i - n] = d->buf[i];
	d->len = (UINT8)(d->len - n);
}

/* Emits the key of one step, pairing CR LF into a single Enter (when they come together:
 * a Ctrl-J typed later is a key of its own). */
static size_t emit(struct term_keys *d, const struct parse *p, UINT8 first, struct term_key *out)
{
	bool lf_after_cr = first == '\n' && d->after_cr && p->used == 1 &&
			   d->last_byte_ns - d->cr_ns < TERM_KEYS_TIMEOUT_NS;

	d->after_cr = first == '\r' && p->used == 1;
	d->cr_ns = d->last_byte_ns;
	if (!p->has_key || lf_after_cr)
		return 0;
	*out = p->key;
	return 1;
}

/* Decodes as much of the pending bytes as is complete (everything when force is set). */
static size_t drain(struct term_keys *d, bool force, struct term_key *out)
{
	size_t n = 0;

	while (d->len) {
		struct parse p;
		enum parse_result r = parse(d->buf, d->len, &p);

		if (r == PARSE_NEED_MORE && d->len == TERM_KEYS_SEQ_MAX && d->buf[0] == ESC &&
		    d->buf[1] == '[') {
			d->skipping_csi = true; /* too long to be a key: drop it whole */
			d->len = 0;
			break;
		}
		if (r == PARSE_NEED_MORE && !force && d->len < TERM_KEYS_SEQ_MAX)
			break;
		if (r != PARSE_DONE)
			parse_lone(d->buf[0], &p);
		n += emit(d, &p, d->buf[0], out + n);
		consume(d, p.used);
	}
	return n;
}

void term_keys_init(struct term_keys *d)
{
	*d = (struct term_keys){0};
}

size_t term_keys_feed(struct term_keys *d, UINT8 byte, UINT64 now_ns, struct term_key *out)
{
	if (d->skipping_csi) {
		if (is_final(byte))
			d->skipping_csi = false;
		return 0;
	}
	d->buf[d->len++] = byte;
	d->last_byte_ns = now_ns;
	return drain(d, false, out);
}

bool term_keys_pending(const struct term_keys *d)
{
	return d->len != 0;
}

size_t term_keys_flush(struct term_keys *d, UINT64 now_ns, bool force, struct term_key *out)
{
	if (!d->len)
		return 0;
	if (!force && now_ns - d->last_byte_ns < TERM_KEYS_TIMEOUT_NS)
		return 0;
	return drain(d, true, out);
}
