#define LOG_PREFIX "pkcs7: "
/* The walk of PKCS#7 SignedData (RFC 2315 9.1 and 9.2) down to the elements verification
 * needs. DER only: what UEFI signers (OpenSSL, sbsign, signtool) produce. */
#include "pkcs7_internal.h"
#include <ember/core/log.h>

/* 1.2.840.113549.1.7.2, .1.7.1, .1.9.3, .1.9.4 */
const uint8_t pkcs7_oid_signed_data[9] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02};
const uint8_t pkcs7_oid_data[9] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01};
const uint8_t pkcs7_oid_content_type[9] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x03};
const uint8_t pkcs7_oid_message_digest[9] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x04};

/* 2.16.840.1.101.3.4.2.{1,2,3} and 1.3.14.3.2.26 */
static const uint8_t oid_sha256[9] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01};
static const uint8_t oid_sha384[9] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02};
static const uint8_t oid_sha512[9] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03};
static const uint8_t oid_sha1[5] = {0x2B, 0x0E, 0x03, 0x02, 0x1A};

bool pkcs7_hash_alg(const struct der_tlv *oid, enum hash_alg *alg)
{
	if (DER_OID_IS(oid, oid_sha256))
		*alg = HASH_SHA256;
	else if (DER_OID_IS(oid, oid_sha384))
		*alg = HASH_SHA384;
	else if (DER_OID_IS(oid, oid_sha512))
		*alg = HASH_SHA512;
	else if (DER_OID_IS(oid, oid_sha1))
		*alg = HASH_SHA1;
	else
		return false;
	return true;
}

/* AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL } */
static bool parse_algorithm(struct der *d, struct der_tlv *oid, struct der_tlv *params)
{
	struct der_tlv seq;
	struct der in;

	if (!der_expect(d, DER_SEQUENCE, &seq))
		return false;
	in = der_inside(&seq);
	if (!der_expect(&in, DER_OID, oid))
		return false;
	params->tag = 0;
	params->size = 0;
	if (in.size > 0 && !der_next(&in, params))
		return false;
	return in.size == 0;
}

/* ContentInfo ::= SEQUENCE { contentType OID, content [0] EXPLICIT ANY OPTIONAL } */
static bool parse_content_info(struct der *d, struct pkcs7_signed_data *sd)
{
	struct der_tlv seq, wrapper;
	struct der in, inner;

	if (!der_expect(d, DER_SEQUENCE, &seq))
		return false;
	in = der_inside(&seq);
	if (!der_expect(&in, DER_OID, &sd->content_type))
		return false;
	sd->has_content = der_optional(&in, DER_CONTEXT(0), &wrapper);
	if (sd->has_content) {
		inner = der_inside(&wrapper);
		if (!der_next(&inner, &sd->content) || inner.size != 0)
			return false;
	}
	return in.size == 0;
}

/* SignedData ::= SEQUENCE { version, digestAlgorithms SET, contentInfo, certificates [0]
 * OPTIONAL, crls [1] OPTIONAL, signerInfos SET } */
static bool parse_signed_data(struct der_tlv *seq, struct pkcs7_signed_data *sd)
{
	struct der in = der_inside(seq);
	struct der_tlv version, digest_algs, crls;

	if (!der_expect(&in, DER_INTEGER, &version) || !der_expect(&in, DER_SET, &digest_algs)) {
		log_debug("SignedData: no version or digestAlgorithms\n");
		return false;
	}
	if (!parse_content_info(&in, sd)) {
		log_debug("SignedData: malformed contentInfo\n");
		return false;
	}
	sd->has_certificates = der_optional(&in, DER_CONTEXT(0), &sd->certificates);
	(void)der_optional(&in, DER_CONTEXT(1), &crls);
	if (!der_expect(&in, DER_SET, &sd->signer_infos) || in.size != 0) {
		log_debug("SignedData: malformed signerInfos\n");
		return false;
	}
	return true;
}

bool pkcs7_parse(struct pkcs7_blob p7, struct pkcs7_signed_data *sd)
{
	struct der d = {p7.data, p7.size}, in, wrapper_in;
	struct der_tlv outer, first, wrapper, seq;

	if (!p7.data || !der_expect(&d, DER_SEQUENCE, &outer) || d.size != 0) {
		log_debug("not one DER SEQUENCE (%zu bytes)\n", p7.size);
		return false;
	}
	in = der_inside(&outer);
	if (!der_next(&in, &first))
		return false;
	/* A bare SignedData starts with its version; a ContentInfo with its type. */
	if (first.tag == DER_INTEGER)
		return parse_signed_data(&outer, sd);
	if (!DER_OID_IS(&first, pkcs7_oid_signed_data)) {
		log_debug("ContentInfo of another type than signedData\n");
		return false;
	}
	if (!der_expect(&in, DER_CONTEXT(0), &wrapper) || in.size != 0)
		return false;
	wrapper_in = der_inside(&wrapper);
	if (!der_expect(&wrapper_in, DER_SEQUENCE, &seq) || wrapper_in.size != 0)
		return false;
	return parse_signed_data(&seq, sd);
}

/* IssuerAndSerialNumber ::= SEQUENCE { issuer Name, serialNumber INTEGER }, or CMS's
 * subjectKeyIdentifier [0] (RFC 5652 5.3), read but not matched: such a signer is left
 * unsupported rather than making the whole SignedData malformed. */
static bool parse_issuer_serial(struct der *d, struct pkcs7_signer_info *si)
{
	struct der_tlv seq;
	struct der in;

	si->by_key_id = der_optional(d, 0x80, &seq);
	if (si->by_key_id)
		return true;
	if (!der_expect(d, DER_SEQUENCE, &seq))
		return false;
	in = der_inside(&seq);
	return der_expect(&in, DER_SEQUENCE, &si->issuer) &&
	       der_expect(&in, DER_INTEGER, &si->serial) && in.size == 0;
}

/* SignerInfo ::= SEQUENCE { version, issuerAndSerialNumber, digestAlgorithm,
 * authenticatedAttributes [0] OPTIONAL, digestEncryptionAlgorithm, encryptedDigest,
 * unauthenticatedAttributes [1] OPTIONAL } */
static bool parse_signer_info(const struct der_tlv *seq, struct pkcs7_signer_info *si)
{
	struct der in = der_inside(seq);
	struct der_tlv version, params, unauth;

	if (!der_expect(&in, DER_INTEGER, &version) || !parse_issuer_serial(&in, si)) {
		log_debug("SignerInfo: no version or issuerAndSerialNumber\n");
		return false;
	}
	if (!parse_algorithm(&in, &si->digest_alg, &params))
		return false;
	si->has_attributes = der_optional(&in, DER_CONTEXT(0), &si->attributes);
	if (!parse_algorithm(&in, &si->signature_alg, &si->signature_params) ||
	    !der_expect(&in, DER_OCTET_STRING, &si->signature)) {
		log_debug("SignerInfo: malformed signature\n");
		return false;
	}
	(void)der_optional(&in, DER_CONTEXT(1), &unauth);
	return in.size == 0;
}

EFI_STATUS pkcs7_next_signer_info(struct der *set, struct pkcs7_signer_info *si)
{
	struct der_tlv seq;

	if (set->size == 0)
		return EFI_NOT_FOUND;
	if (!der_expect(set, DER_SEQUENCE, &seq) || !parse_signer_info(&seq, si))
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}
