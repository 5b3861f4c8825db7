/* A reader of DER (ITU-T X.690) for the structures Ember walks itself: PKCS#7 SignedData
 * and Authenticode's SpcIndirectDataContent. Bounded by the buffer it is given; refuses
 * indefinite lengths, multi-byte tags and lengths that run past their enclosure. */
#ifndef EMBER_CRYPTO_DER_H
#define EMBER_CRYPTO_DER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DER_INTEGER 0x02
#define DER_OCTET_STRING 0x04
#define DER_NULL 0x05
#define DER_OID 0x06
#define DER_SEQUENCE 0x30
#define DER_SET 0x31
#define DER_CONTEXT(n) (0xA0 | (n)) /* [n], constructed */

/* What is left to read. */
struct der {
	const uint8_t *p;
	size_t size;
};

/* One element: its tag, its whole encoding (raw) and its contents octets (value). */
struct der_tlv {
	uint8_t tag;
	const uint8_t *raw;
	size_t raw_size;
	const uint8_t *value;
	size_t size;
};

/* Reads the next element of d; false when d is empty or the element is malformed. */
bool der_next(struct der *d, struct der_tlv *tlv);
/* Reads the next element and requires its tag. */
bool der_expect(struct der *d, uint8_t tag, struct der_tlv *tlv);
/* Reads the next element only when it has the tag (an OPTIONAL field); false otherwise,
 * leaving d unchanged. */
bool der_optional(struct der *d, uint8_t tag, struct der_tlv *tlv);
/* The contents of an element, to read its members. */
struct der der_inside(const struct der_tlv *tlv);
/* True when tlv is an OBJECT IDENTIFIER whose contents are oid (size bytes). */
bool der_oid_is(const struct der_tlv *tlv, const uint8_t *oid, size_t size);
#define DER_OID_IS(tlv, oid) der_oid_is((tlv), (oid), sizeof(oid))

#endif
