/* A bounded DER reader (X.690 8.1 and 10.1: definite lengths only). */
#include <ember/crypto/der.h>
#include <ember/lib/str.h>

/* The length octets at d (X.690 8.1.3); consumes them. */
static bool der_length(struct der *d, size_t *length)
{
	uint8_t first;
	size_t count, value = 0;

	if (d->size < 1)
		return false;
	first = d->p[0];
	d->p++, d->size--;
	if (first < 0x80) {
		*length = first;
		return true;
	}
	/* 0x80 is BER's indefinite length, which DER forbids; more than 4 octets would be
	 * longer than anything Ember reads. */
	count = first & 0x7F;
	if (count == 0 || count > 4 || d->size < count)
		return false;
	for (size_t i = 0; i < count; i++)
		value = value << 8 | d->p[i];
	d->p += count, d->size -= count;
	*length = value;
	return true;
}

bool der_next(struct der *d, struct der_tlv *tlv)
{
	struct der rest = *d;
	size_t length;

	if (rest.size < 2)
		return false;
	tlv->tag = rest.p[0];
	tlv->raw = rest.p;
	/* High tag numbers (low five bits all set) take more octets: none is used here. */
	if ((tlv->tag & 0x1F) == 0x1F)
		return false;
	rest.p++, rest.size--;
	if (!der_length(&rest, &length) || length > rest.size)
		return false;
	tlv->value = rest.p;
	tlv->size = length;
	tlv->raw_size = (size_t)(rest.p - tlv->raw) + length;
	d->p = rest.p + length;
	d->size = rest.size - length;
	return true;
}

bool der_expect(struct der *d, uint8_t tag, struct der_tlv *tlv)
{
	struct der rest = *d;

	if (!der_next(&rest, tlv) || tlv->tag != tag)
		return false;
	*d = rest;
	return true;
}

bool der_optional(struct der *d, uint8_t tag, struct der_tlv *tlv)
{
	return d->size > 0 && d->p[0] == tag && der_expect(d, tag, tlv);
}

struct der der_inside(const struct der_tlv *tlv)
{
	return (struct der){tlv->value, tlv->size};
}

bool der_oid_is(const struct der_tlv *tlv, const uint8_t *oid, size_t size)
{
	return tlv->tag == DER_OID && tlv->size == size && mem_cmp(tlv->value, oid, size) == 0;
}
