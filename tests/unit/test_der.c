/* crypto/der.c: short and long lengths, and what DER forbids or Ember does not read. */
#include "support/test.h"
#include <ember/crypto/der.h>

TEST(der_short_and_long_lengths)
{
	static const uint8_t two[] = {0x30, 0x03, 0x02, 0x01, 0x05, 0x04, 0x81, 0x01, 0xAA};
	struct der d = {two, sizeof(two)}, in;
	struct der_tlv seq, n, s;

	ASSERT(der_expect(&d, DER_SEQUENCE, &seq));
	EXPECT_EQ(seq.raw_size, 5);
	in = der_inside(&seq);
	ASSERT(der_expect(&in, DER_INTEGER, &n));
	EXPECT_EQ(n.size, 1);
	EXPECT_EQ(n.value[0], 5);
	EXPECT_EQ(in.size, 0);
	/* A wrong tag leaves the reader where it was. */
	EXPECT(!der_expect(&d, DER_SEQUENCE, &s));
	EXPECT(!der_optional(&d, DER_CONTEXT(0), &s));
	ASSERT(der_expect(&d, DER_OCTET_STRING, &s));
	EXPECT_EQ(s.size, 1);
	EXPECT_EQ(s.value[0], 0xAA);
	EXPECT_EQ(d.size, 0);
	EXPECT(!der_next(&d, &s));
}

TEST(der_refuses_indefinite_overlong_and_high_tags)
{
	static const uint8_t indefinite[] = {0x30, 0x80, 0x00, 0x00};
	static const uint8_t past_end[] = {0x04, 0x82, 0x01, 0x00, 0xAA};
	static const uint8_t five_octets[] = {0x04, 0x85, 0, 0, 0, 0, 1, 0xAA};
	static const uint8_t high_tag[] = {0x1F, 0x81, 0x01, 0x00};
	static const uint8_t cut_length[] = {0x04, 0x82, 0x01};
	const struct {
		const uint8_t *p;
		size_t size;
	} cases[] = {{indefinite, sizeof(indefinite)},
		     {past_end, sizeof(past_end)},
		     {five_octets, sizeof(five_octets)},
		     {high_tag, sizeof(high_tag)},
		     {cut_length, sizeof(cut_length)}};
	struct der_tlv tlv;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct der d = {cases[i].p, cases[i].size};

		EXPECT(!der_next(&d, &tlv));
		EXPECT_EQ(d.size, cases[i].size);
	}
}

TEST(der_oid_compare)
{
	static const uint8_t oid_der[] = {0x06, 0x03, 0x2B, 0x0E, 0x03};
	static const uint8_t prefix[] = {0x2B, 0x0E, 0x03}, longer[] = {0x2B, 0x0E, 0x03, 0x02};
	struct der d = {oid_der, sizeof(oid_der)};
	struct der_tlv oid;

	ASSERT(der_next(&d, &oid));
	EXPECT(DER_OID_IS(&oid, prefix));
	EXPECT(!DER_OID_IS(&oid, longer));
}
