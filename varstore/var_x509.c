/* The two parts of an X.509 certificate (RFC 5280, 4.1) that name the signer of a private
 * authenticated variable (UEFI 2.10 8.2.6): the tbsCertificate and the subject's Common
 * Name, read with crypto/'s DER reader. Certificates themselves are checked by crypto/. */
#define LOG_PREFIX "varstore: "
#include "var_internal.h"
#include <ember/core/log.h>
#include <ember/crypto/der.h>

/* Certificate ::= SEQUENCE { tbsCertificate SEQUENCE, ... } */
static bool tbs_item(struct pkcs7_blob cert, struct der_tlv *tbs)
{
	struct der d = {cert.data, cert.size};
	struct der_tlv it;

	if (!der_expect(&d, DER_SEQUENCE, &it))
		return false;
	d = der_inside(&it);
	return der_expect(&d, DER_SEQUENCE, tbs);
}

bool var_x509_tbs(struct pkcs7_blob cert, struct pkcs7_blob *tbs)
{
	struct der_tlv it;

	if (!tbs_item(cert, &it))
		return false;
	*tbs = (struct pkcs7_blob){it.raw, it.raw_size};
	return true;
}

/* The value of the first commonName (2.5.4.3) attribute of a Name; size 0 when none. */
static bool name_common_name(struct der rdns, struct pkcs7_blob *cn)
{
	static const UINT8 cn_oid[] = {0x55, 0x04, 0x03};
	struct der_tlv rdn, atv, oid, value;

	*cn = (struct pkcs7_blob){NULL, 0};
	while (rdns.size) {
		if (!der_expect(&rdns, DER_SET, &rdn))
			return false;
		struct der atvs = der_inside(&rdn);
		while (atvs.size) {
			if (!der_expect(&atvs, DER_SEQUENCE, &atv))
				return false;
			struct der parts = der_inside(&atv);
			if (!der_expect(&parts, DER_OID, &oid) || !der_next(&parts, &value))
				return false;
			if (DER_OID_IS(&oid, cn_oid)) {
				*cn = (struct pkcs7_blob){value.value, value.size};
				return true;
			}
		}
	}
	return true;
}

bool var_x509_common_name(struct pkcs7_blob cert, struct pkcs7_blob *cn)
{
	struct der d;
	struct der_tlv it;

	if (!tbs_item(cert, &it))
		return false;
	d = der_inside(&it);
	der_optional(&d, DER_CONTEXT(0), &it); /* version */
	/* serialNumber, signature, issuer, validity, then the subject */
	for (int skip = 4; skip > 0; skip--)
		if (!der_next(&d, &it))
			return false;
	if (!der_expect(&d, DER_SEQUENCE, &it)) {
		log_debug("a signer's certificate has no subject\n");
		return false;
	}
	return name_common_name(der_inside(&it), cn);
}
