/* ember-varstore enroll's readers of outside input (tool.h): a DER certificate's outer
 * shape, PEM's base64 and hex hashes; each bounded by the length it is given. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "tool.h"
#include <ember/crypto/der.h>

/* A certificate: one DER SEQUENCE filling the buffer, holding TBSCertificate, the
 * algorithm and the signature's BIT STRING. */
bool enroll_der_certificate(const UINT8 *data, size_t size)
{
	struct der d = {data, size}, in;
	struct der_tlv whole, part;

	if (!der_expect(&d, 0x30, &whole) || d.size != 0)
		return false;
	in = der_inside(&whole);
	return der_expect(&in, 0x30, &part) && der_expect(&in, 0x30, &part) &&
	       der_expect(&in, 0x03, &part) && in.size == 0;
}

static int b64_value(int ch)
{
	static const char digits[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = ch ? strchr(digits, ch) : NULL;

	return p ? (int)(p - digits) : -1;
}

/* Decodes the base64 text from text to end (whitespace skipped) into out; its size, or
 * -1 when malformed. */
long enroll_base64_decode(const char *text, const char *end, UINT8 *out)
{
	unsigned bits = 0, count = 0, pad = 0;
	long n = 0;

	for (; text < end; text++) {
		int v = b64_value(*text);

		if (isspace((unsigned char)*text))
			continue;
		if (*text == '=') {
			pad++;
			continue;
		}
		if (v < 0 || pad)
			return -1;
		bits = (bits << 6) | (unsigned)v;
		if (++count % 4 == 0) {
			out[n++] = (UINT8)(bits >> 16);
			out[n++] = (UINT8)(bits >> 8);
			out[n++] = (UINT8)bits;
			bits = 0;
		}
	}
	if (count % 4 == 1 || pad > 2)
		return -1;
	if (count % 4 == 2)
		out[n++] = (UINT8)(bits >> 4);
	if (count % 4 == 3) {
		out[n++] = (UINT8)(bits >> 10);
		out[n++] = (UINT8)(bits >> 2);
	}
	return n;
}

/* 64 hex digits: a SHA-256 hash. */
bool enroll_parse_sha256(const char *text, UINT8 *hash)
{
	if (strlen(text) != 64)
		return false;
	for (int i = 0; i < 32; i++) {
		unsigned v;

		if (!isxdigit((unsigned char)text[2 * i]) ||
		    !isxdigit((unsigned char)text[2 * i + 1]) ||
		    sscanf(text + 2 * i, "%2x", &v) != 1)
			return false;
		hash[i] = (UINT8)v;
	}
	return true;
}
