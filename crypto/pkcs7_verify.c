#define LOG_PREFIX "pkcs7: "
/* pkcs7_verify: each SignerInfo of a SignedData checked in turn (RFC 2315 9.3 and 9.4);
 * the first that verifies and chains to a trusted certificate wins. */
#include "pkcs7_internal.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include "mbedtls/x509.h"

/* 1.2.840.113549.1.1.{1,5,10,11,12,13}: rsaEncryption, sha1WithRSAEncryption, RSASSA-PSS,
 * sha256/384/512WithRSAEncryption (the last byte differs). */
static const uint8_t oid_pkcs1_prefix[8] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01};
#define PKCS1_RSA 1
#define PKCS1_PSS 10

/* What a signer signed: the content's digest and the digest the signature covers. */
struct signed_digests {
	enum hash_alg alg;
	uint8_t content[HASH_MAX_SIZE];
	uint8_t signed_[HASH_MAX_SIZE];
};

static mbedtls_md_type_t md_type(enum hash_alg alg)
{
	switch (alg) {
	case HASH_SHA1:
		return MBEDTLS_MD_SHA1;
	case HASH_SHA256:
		return MBEDTLS_MD_SHA256;
	case HASH_SHA384:
		return MBEDTLS_MD_SHA384;
	case HASH_SHA512:
		return MBEDTLS_MD_SHA512;
	}
	return MBEDTLS_MD_NONE;
}

/* The single value of an attribute (its SET OF must hold exactly one). */
static bool single_value(struct der *in, struct der_tlv *value)
{
	struct der_tlv set;
	struct der values;

	if (!der_expect(in, DER_SET, &set) || in->size != 0)
		return false;
	values = der_inside(&set);
	return der_next(&values, value) && values.size == 0;
}

/* RFC 2315 9.2: with authenticated attributes, contentType must name the content's type
 * and messageDigest hold its digest; each appears once. */
static EFI_STATUS check_attributes(const struct pkcs7_signer_info *si,
				   const struct pkcs7_signed_data *sd,
				   const struct signed_digests *dg)
{
	struct der set = der_inside(&si->attributes), in;
	struct der_tlv attr, type, value;
	int seen_type = 0, seen_digest = 0;

	while (set.size > 0) {
		if (!der_expect(&set, DER_SEQUENCE, &attr))
			return EFI_INVALID_PARAMETER;
		in = der_inside(&attr);
		if (!der_expect(&in, DER_OID, &type))
			return EFI_INVALID_PARAMETER;
		if (DER_OID_IS(&type, pkcs7_oid_content_type)) {
			if (seen_type++ || !single_value(&in, &value))
				return EFI_INVALID_PARAMETER;
			if (!der_oid_is(&value, sd->content_type.value, sd->content_type.size)) {
				log_debug("contentType attribute differs from the content's\n");
				return EFI_SECURITY_VIOLATION;
			}
		} else if (DER_OID_IS(&type, pkcs7_oid_message_digest)) {
			if (seen_digest++ || !single_value(&in, &value) ||
			    value.tag != DER_OCTET_STRING)
				return EFI_INVALID_PARAMETER;
			if (value.size != hash_size(dg->alg) ||
			    mem_cmp(value.value, dg->content, value.size) != 0) {
				log_debug("messageDigest differs from the content's digest\n");
				return EFI_SECURITY_VIOLATION;
			}
		}
	}
	if (!seen_type || !seen_digest) {
		log_debug("authenticated attributes without contentType or messageDigest\n");
		return EFI_INVALID_PARAMETER;
	}
	return EFI_SUCCESS;
}

/* The digests of a SignerInfo: of the content and of what the signature covers (the
 * content's digest, or the DER of the attributes with the SET OF tag of RFC 2315 9.3). */
static EFI_STATUS compute_digests(const struct pkcs7_signer_info *si,
				  const struct pkcs7_signed_data *sd, struct pkcs7_blob content,
				  struct signed_digests *dg)
{
	static const uint8_t set_tag = DER_SET;
	struct hash_ctx ctx;
	EFI_STATUS status;

	if (!pkcs7_hash_alg(&si->digest_alg, &dg->alg)) {
		log_debug("SignerInfo: unknown digest algorithm\n");
		return EFI_UNSUPPORTED;
	}
	hash_buffer(dg->alg, content.data, content.size, dg->content);
	if (!si->has_attributes) {
		mem_copy(dg->signed_, dg->content, sizeof(dg->content));
		return EFI_SUCCESS;
	}
	status = check_attributes(si, sd, dg);
	if (EFI_ERROR(status))
		return status;
	hash_init(&ctx, dg->alg);
	hash_update(&ctx, &set_tag, 1);
	hash_update(&ctx, si->attributes.raw + 1, si->attributes.raw_size - 1);
	hash_final(&ctx, dg->signed_);
	return EFI_SUCCESS;
}

/* The RSASSA-PSS parameters of a SignerInfo; their digest must be the signer's. */
static EFI_STATUS pss_options(const struct pkcs7_signer_info *si, mbedtls_md_type_t md,
			      mbedtls_pk_rsassa_pss_options *opts)
{
	mbedtls_x509_buf params = {.tag = si->signature_params.tag,
				   .len = si->signature_params.size,
				   .p = (unsigned char *)si->signature_params.value};
	mbedtls_md_type_t pss_md;
	int salt;

	if (mbedtls_x509_get_rsassa_pss_params(&params, &pss_md, &opts->mgf1_hash_id, &salt) != 0)
		return EFI_INVALID_PARAMETER;
	if (pss_md != md)
		return EFI_SECURITY_VIOLATION;
	opts->expected_salt_len = salt;
	return EFI_SUCCESS;
}

/* The signer's RSA signature over dg->signed_ (PKCS#1 v1.5 or PSS). */
static EFI_STATUS check_signature(const struct pkcs7_signer_info *si, const mbedtls_x509_crt *leaf,
				  const struct signed_digests *dg)
{
	const struct der_tlv *alg = &si->signature_alg;
	mbedtls_pk_context *pk = (mbedtls_pk_context *)&leaf->pk;
	mbedtls_md_type_t md = md_type(dg->alg);
	mbedtls_pk_rsassa_pss_options opts;
	size_t size = hash_size(dg->alg);
	EFI_STATUS status;
	uint8_t kind;

	if (alg->size != sizeof(oid_pkcs1_prefix) + 1 ||
	    mem_cmp(alg->value, oid_pkcs1_prefix, sizeof(oid_pkcs1_prefix)) != 0 ||
	    mbedtls_pk_get_type(pk) != MBEDTLS_PK_RSA) {
		log_debug("SignerInfo: not an RSA signature\n");
		return EFI_UNSUPPORTED;
	}
	kind = alg->value[sizeof(oid_pkcs1_prefix)];
	if (kind == PKCS1_PSS) {
		status = pss_options(si, md, &opts);
		if (EFI_ERROR(status))
			return status;
		if (mbedtls_pk_verify_ext(MBEDTLS_PK_RSASSA_PSS, &opts, pk, md, dg->signed_, size,
					  si->signature.value, si->signature.size) != 0)
			goto bad;
		return EFI_SUCCESS;
	}
	if (kind != PKCS1_RSA && kind != 5 && (kind < 11 || kind > 13))
		return EFI_UNSUPPORTED;
	if (mbedtls_pk_verify(pk, md, dg->signed_, size, si->signature.value, si->signature.size) !=
	    0)
		goto bad;
	return EFI_SUCCESS;
bad:
	log_debug("SignerInfo: the signature does not verify\n");
	return EFI_SECURITY_VIOLATION;
}

/* One SignerInfo: digests, signature, then the chain to trusted[]. */
static EFI_STATUS verify_signer(const struct pkcs7_signer_info *si,
				const struct pkcs7_signed_data *sd, struct pkcs7_blob content,
				const mbedtls_x509_crt *certs, const struct pkcs7_blob *trusted,
				size_t n_trusted, struct pkcs7_signer *signer)
{
	const mbedtls_x509_crt *leaf, *top;
	struct signed_digests dg;
	EFI_STATUS status;

	if (si->by_key_id) {
		log_debug("SignerInfo: signer named by key identifier, not supported\n");
		return EFI_UNSUPPORTED;
	}
	status = compute_digests(si, sd, content, &dg);
	if (EFI_ERROR(status))
		return status;
	leaf = pkcs7_certs_find(certs, si);
	if (!leaf) {
		log_debug("SignerInfo: its certificate is not in the SignedData\n");
		return EFI_SECURITY_VIOLATION;
	}
	status = check_signature(si, leaf, &dg);
	if (EFI_ERROR(status))
		return status;
	if (!pkcs7_chain_trusted(leaf, certs, trusted, n_trusted, &top)) {
		log_debug("SignerInfo: no trusted certificate in the signer's chain\n");
		return EFI_SECURITY_VIOLATION;
	}
	signer->leaf = (struct pkcs7_blob){leaf->raw.p, leaf->raw.len};
	signer->top = (struct pkcs7_blob){top->raw.p, top->raw.len};
	return EFI_SUCCESS;
}

/* Every SignerInfo parsed before any is trusted: a malformed one makes p7 malformed. */
static EFI_STATUS check_signer_infos(const struct pkcs7_signed_data *sd)
{
	struct der set = der_inside(&sd->signer_infos);
	struct pkcs7_signer_info si;
	EFI_STATUS status;
	size_t count = 0;

	while ((status = pkcs7_next_signer_info(&set, &si)) == EFI_SUCCESS)
		count++;
	if (status != EFI_NOT_FOUND || count == 0) {
		log_debug("malformed or no SignerInfo\n");
		return EFI_INVALID_PARAMETER;
	}
	return EFI_SUCCESS;
}

EFI_STATUS pkcs7_verify(struct pkcs7_blob p7, struct pkcs7_blob content,
			const struct pkcs7_blob *trusted, size_t n_trusted,
			struct pkcs7_signer *signer)
{
	struct pkcs7_signed_data sd;
	struct pkcs7_signer found;
	struct pkcs7_signer_info si;
	mbedtls_x509_crt certs;
	EFI_STATUS status, result = EFI_UNSUPPORTED;
	struct der set;

	if (!pkcs7_parse(p7, &sd) || EFI_ERROR(check_signer_infos(&sd)))
		return EFI_INVALID_PARAMETER;
	if (!content.data) {
		if (!sd.has_content) {
			log_debug("no content given nor embedded\n");
			return EFI_INVALID_PARAMETER;
		}
		/* RFC 2315 9.3: the digest covers the contents octets of the content. */
		content = (struct pkcs7_blob){sd.content.value, sd.content.size};
	}
	pkcs7_certs_load(&sd, &certs);
	set = der_inside(&sd.signer_infos);
	while (pkcs7_next_signer_info(&set, &si) == EFI_SUCCESS) {
		status = verify_signer(&si, &sd, content, &certs, trusted, n_trusted, &found);
		if (!EFI_ERROR(status)) {
			result = EFI_SUCCESS;
			if (signer)
				*signer = found;
			break;
		}
		/* An unsupported signer alone gives EFI_UNSUPPORTED; any refusal wins. */
		if (status != EFI_UNSUPPORTED)
			result = status == EFI_INVALID_PARAMETER ? EFI_INVALID_PARAMETER
								 : EFI_SECURITY_VIOLATION;
	}
	mbedtls_x509_crt_free(&certs);
	return result;
}

EFI_STATUS pkcs7_get_content(struct pkcs7_blob p7, struct pkcs7_blob *type,
			     struct pkcs7_blob *content)
{
	struct pkcs7_signed_data sd;

	if (!pkcs7_parse(p7, &sd))
		return EFI_INVALID_PARAMETER;
	*type = (struct pkcs7_blob){sd.content_type.value, sd.content_type.size};
	*content = sd.has_content ? (struct pkcs7_blob){sd.content.raw, sd.content.raw_size}
				  : (struct pkcs7_blob){NULL, 0};
	return EFI_SUCCESS;
}
