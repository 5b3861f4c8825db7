/* The TFTP client's read (RFC 1350 with RFC 2347-2349 options): lock-step, one block in
 * flight, the block number wrapping from 65535 to 0 as common servers do. */
#include <ember/lib/str.h>
#include <ember/net/tftp.h>

/* Appends a NUL-terminated string to out. */
static void tftp_put_str(struct tftp_client *c, const char *s)
{
	size_t n = str8_len(s) + 1;

	mem_copy(c->out + c->out_len, s, n);
	c->out_len += n;
}

bool tftp_client_start(struct tftp_client *c, const char *name)
{
	return tftp_client_start_sized(c, name, TFTP_WANTED_BLKSIZE);
}

bool tftp_client_start_sized(struct tftp_client *c, const char *name, uint16_t blksize)
{
	size_t n = name ? str8_len(name) : 0;
	char digits[6];
	int i = sizeof(digits) - 1;

	mem_set(c, 0, sizeof(*c));
	if (!n || n > TFTP_NAME_MAX || blksize < 8 || blksize > TFTP_WANTED_BLKSIZE)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((uint8_t)name[i] < 0x20 || name[i] == 0x7f)
			return false;
	c->state = TFTP_REQUESTED;
	c->blksize = TFTP_DEFAULT_BLKSIZE;
	net_put16(c->out, TFTP_RRQ);
	c->out_len = 2;
	tftp_put_str(c, name);
	tftp_put_str(c, "octet");
	tftp_put_str(c, "blksize");
	digits[i] = 0;
	for (unsigned v = blksize; v; v /= 10)
		digits[--i] = (char)('0' + v % 10);
	tftp_put_str(c, digits + i);
	c->asked = blksize;
	tftp_put_str(c, "tsize");
	tftp_put_str(c, "0");
	c->tries = 1;
	c->send = true;
	return true;
}

void tftp_client_abort(struct tftp_client *c, uint16_t code, const char *msg)
{
	size_t n = str8_len(msg);

	if (n > sizeof(c->error) - 1)
		n = sizeof(c->error) - 1;
	mem_copy(c->error, msg, n);
	c->error[n] = 0;
	c->error_code = code;
	c->state = TFTP_FAILED;
	net_put16(c->out, TFTP_ERROR);
	net_put16(c->out + 2, code);
	c->out_len = 4;
	tftp_put_str(c, c->error);
	c->send = true;
}

static void tftp_ack(struct tftp_client *c, uint16_t block)
{
	net_put16(c->out, TFTP_ACK);
	net_put16(c->out + 2, block);
	c->out_len = 4;
	c->tries = 1;
}

/* An ERROR from the server: its message kept, control characters replaced. */
static enum tftp_event tftp_error_in(struct tftp_client *c, const uint8_t *p, size_t len)
{
	size_t n = 0;

	c->error_code = len >= 4 ? net_get16(p + 2) : 0;
	for (size_t i = 4; i < len && p[i] && n < sizeof(c->error) - 1; i++)
		c->error[n++] = p[i] < 0x20 || p[i] >= 0x7f ? '?' : (char)p[i];
	c->error[n] = 0;
	c->state = TFTP_FAILED;
	c->out_len = 0; /* errors are not answered */
	c->send = false;
	return TFTP_EV_FAILED;
}

static enum tftp_event tftp_refuse(struct tftp_client *c, uint16_t code, const char *why)
{
	tftp_client_abort(c, code, why);
	return TFTP_EV_FAILED;
}

/* One data block: new, a duplicate (our ACK was lost: ACK it again) or out of step. */
static enum tftp_event tftp_data_in(struct tftp_client *c, const uint8_t *p, size_t len)
{
	uint16_t block = net_get16(p + 2);
	size_t n = len - 4;

	if (n > c->blksize)
		return tftp_refuse(c, 4, "DATA longer than the block size");
	if (block != (uint16_t)(c->blocks + 1)) {
		c->send = c->blocks && block == (uint16_t)c->blocks;
		return TFTP_EV_NONE;
	}
	c->offset = c->blocks * c->blksize;
	if (c->has_tsize &&
	    (c->offset + n > c->tsize || (n < c->blksize && c->offset + n != c->tsize)))
		return tftp_refuse(c, 3, "DATA disagrees with tsize");
	c->blocks++;
	c->data = p + 4;
	c->data_len = n;
	c->state = n < c->blksize ? TFTP_DONE : TFTP_TRANSFERRING;
	tftp_ack(c, block);
	c->send = true;
	return c->state == TFTP_DONE ? TFTP_EV_DONE : TFTP_EV_DATA;
}

/* A decimal option value: 1 to 19 digits, nothing else. */
static bool tftp_number(const char *s, uint64_t *out)
{
	size_t n = str8_len(s);

	if (!n || n > 19)
		return false;
	*out = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*out = *out * 10 + (uint64_t)(s[i] - '0');
	}
	return true;
}

/* The end of the NUL-terminated string at p[at], or 0 when it runs past len. */
static size_t tftp_string_end(const uint8_t *p, size_t len, size_t at)
{
	for (size_t i = at; i < len; i++)
		if (!p[i])
			return i;
	return 0;
}

static bool tftp_same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if ((*a | 0x20) != *b)
			return false;
	return !*a && !*b;
}

/* One option of an OACK; seen records those given, so a repeat is refused. */
static const char *tftp_option(struct tftp_client *c, const char *name, const char *value,
			       unsigned *seen)
{
	uint64_t v;

	if (!tftp_number(value, &v))
		return "OACK value not a number";
	if (tftp_same_name(name, "blksize")) {
		if (*seen & 1)
			return "OACK repeats blksize";
		if (v < 8 || v > c->asked)
			return "OACK blksize out of range";
		c->blksize = (uint16_t)v;
		*seen |= 1;
	} else if (tftp_same_name(name, "tsize")) {
		if (*seen & 2)
			return "OACK repeats tsize";
		c->tsize = v;
		c->has_tsize = true;
		*seen |= 2;
	} else {
		return "OACK names an option not asked for";
	}
	return NULL;
}

static enum tftp_event tftp_oack_in(struct tftp_client *c, const uint8_t *p, size_t len)
{
	unsigned seen = 0;
	size_t at = 2;

	if (c->state != TFTP_REQUESTED)
		return tftp_refuse(c, 4, "OACK after the transfer began");
	while (at < len) {
		size_t name_end = tftp_string_end(p, len, at), value_end;
		const char *why;

		if (!name_end || name_end == at)
			return tftp_refuse(c, 8, "OACK option name empty or unterminated");
		value_end = tftp_string_end(p, len, name_end + 1);
		if (!value_end)
			return tftp_refuse(c, 8, "OACK value unterminated");
		why = tftp_option(c, (const char *)p + at, (const char *)p + name_end + 1, &seen);
		if (why)
			return tftp_refuse(c, 8, why);
		at = value_end + 1;
	}
	c->state = TFTP_TRANSFERRING;
	tftp_ack(c, 0);
	c->send = true;
	return TFTP_EV_OPTIONS;
}

enum tftp_event tftp_client_input(struct tftp_client *c, uint16_t src_port, const uint8_t *p,
				  size_t len)
{
	c->send = false;
	if (c->state != TFTP_REQUESTED && c->state != TFTP_TRANSFERRING)
		return TFTP_EV_NONE;
	/* The server's first answer fixes its transfer ID (RFC 1350, 4). */
	if (c->server_port && src_port != c->server_port)
		return TFTP_EV_NONE;
	c->server_port = src_port;
	if (!p || len < 4)
		return tftp_refuse(c, 4, "packet too short");
	switch (net_get16(p)) {
	case TFTP_DATA:
		return tftp_data_in(c, p, len);
	case TFTP_OACK:
		return tftp_oack_in(c, p, len);
	case TFTP_ERROR:
		return tftp_error_in(c, p, len);
	default:
		return tftp_refuse(c, 4, "unexpected opcode");
	}
}

bool tftp_client_timeout(struct tftp_client *c, unsigned max_tries)
{
	if (c->state != TFTP_REQUESTED && c->state != TFTP_TRANSFERRING)
		return false;
	if (c->tries >= max_tries) {
		tftp_client_abort(c, 0, "timed out");
		return false;
	}
	c->tries++;
	c->send = true;
	return true;
}
