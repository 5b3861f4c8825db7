#define LOG_PREFIX "authenticode: "
/* An image's certificate table (PE/COFF specification 5.7, UEFI 2.10 32.2.4) and the
 * SpcIndirectDataContent its Authenticode signatures sign. */
#include "authenticode_pe.h"
#include "pkcs7_internal.h"
#include <ember/core/log.h>
#include <ember/crypto/authenticode.h>
#include <ember/lib/str.h>

#define WIN_CERT_HEADER 8
#define WIN_CERT_REVISION_2_0 0x0200
#define WIN_CERT_TYPE_PKCS_SIGNED_DATA 0x0002

/* 1.3.6.1.4.1.311.2.1.4: SPC_INDIRECT_DATA_OBJID */
static const uint8_t oid_spc_indirect_data[10] = {0x2B, 0x06, 0x01, 0x04, 0x01,
						  0x82, 0x37, 0x02, 0x01, 0x04};

EFI_STATUS authenticode_certs_begin(const void *image, size_t size,
				    struct authenticode_certs *certs)
{
	struct authenticode_pe pe;

	if (!image || !authenticode_pe_parse(image, size, &pe))
		return EFI_INVALID_PARAMETER;
	if (pe.cert_size == 0)
		return EFI_NOT_FOUND;
	certs->next = (const uint8_t *)image + pe.cert_offset;
	certs->left = pe.cert_size;
	return EFI_SUCCESS;
}

/* bCertificate without the zero bytes some signers (osslsigncode) pad it with inside
 * dwLength, up to the 8-byte alignment of the next entry. */
static struct pkcs7_blob trim_padding(const uint8_t *data, size_t size)
{
	struct der d = {data, size};
	struct der_tlv tlv;

	if (!der_next(&d, &tlv) || d.size >= 8 || !mem_is_zero(d.p, d.size))
		return (struct pkcs7_blob){data, size};
	return (struct pkcs7_blob){data, tlv.raw_size};
}

EFI_STATUS authenticode_certs_next(struct authenticode_certs *certs, struct pkcs7_blob *p7)
{
	while (certs->left > 0) {
		const uint8_t *entry = certs->next;
		uint32_t length;
		size_t step;

		if (certs->left < WIN_CERT_HEADER)
			goto malformed;
		length = authenticode_le32(entry);
		if (length < WIN_CERT_HEADER || length > certs->left)
			goto malformed;
		/* Entries start on 8-byte boundaries; the last one may end the table unpadded. */
		step = ((size_t)length + 7) & ~(size_t)7;
		certs->next += step < certs->left ? step : certs->left;
		certs->left -= step < certs->left ? step : certs->left;
		if (authenticode_le16(entry + 4) != WIN_CERT_REVISION_2_0 ||
		    authenticode_le16(entry + 6) != WIN_CERT_TYPE_PKCS_SIGNED_DATA) {
			log_debug("skipping a certificate of type %#x\n",
				  authenticode_le16(entry + 6));
			continue;
		}
		*p7 = trim_padding(entry + WIN_CERT_HEADER, length - WIN_CERT_HEADER);
		return EFI_SUCCESS;
	}
	return EFI_NOT_FOUND;
malformed:
	log_debug("malformed WIN_CERTIFICATE (%zu bytes left)\n", certs->left);
	certs->left = 0;
	return EFI_INVALID_PARAMETER;
}

/* SpcIndirectDataContent ::= SEQUENCE { data SpcAttributeTypeAndOptionalValue,
 * messageDigest DigestInfo }; DigestInfo ::= SEQUENCE { AlgorithmIdentifier, OCTET STRING } */
static EFI_STATUS parse_indirect_data(struct pkcs7_blob content, enum hash_alg *alg,
				      struct pkcs7_blob *digest)
{
	struct der d = {content.data, content.size}, in, info, alg_in;
	struct der_tlv seq, data, digest_info, alg_id, oid, value;

	if (!der_expect(&d, DER_SEQUENCE, &seq) || d.size != 0)
		return EFI_INVALID_PARAMETER;
	in = der_inside(&seq);
	if (!der_expect(&in, DER_SEQUENCE, &data) || !der_expect(&in, DER_SEQUENCE, &digest_info) ||
	    in.size != 0)
		return EFI_INVALID_PARAMETER;
	info = der_inside(&digest_info);
	if (!der_expect(&info, DER_SEQUENCE, &alg_id) ||
	    !der_expect(&info, DER_OCTET_STRING, &value) || info.size != 0)
		return EFI_INVALID_PARAMETER;
	alg_in = der_inside(&alg_id);
	if (!der_expect(&alg_in, DER_OID, &oid))
		return EFI_INVALID_PARAMETER;
	if (!pkcs7_hash_alg(&oid, alg)) {
		log_debug("unknown digest algorithm\n");
		return EFI_UNSUPPORTED;
	}
	if (value.size != hash_size(*alg))
		return EFI_INVALID_PARAMETER;
	*digest = (struct pkcs7_blob){value.value, value.size};
	return EFI_SUCCESS;
}

EFI_STATUS authenticode_signed_digest(struct pkcs7_blob p7, enum hash_alg *alg,
				      struct pkcs7_blob *digest)
{
	struct pkcs7_blob type, content;
	EFI_STATUS status;

	status = pkcs7_get_content(p7, &type, &content);
	if (EFI_ERROR(status))
		return status;
	if (type.size != sizeof(oid_spc_indirect_data) ||
	    mem_cmp(type.data, oid_spc_indirect_data, type.size) != 0 || !content.data) {
		log_debug("not an Authenticode signature (no SpcIndirectDataContent)\n");
		return EFI_INVALID_PARAMETER;
	}
	status = parse_indirect_data(content, alg, digest);
	if (EFI_ERROR(status))
		log_debug("malformed SpcIndirectDataContent: %r\n", status);
	return status;
}
