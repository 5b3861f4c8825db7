/* The two parts of an X.509 certificate (RFC 5280, 4.1) that name the signer of a private
 * authenticated variable (UEFI 2.10 8.2.6): the tbsCertificate and the subject's Common
 * Name. A bounded walk of DER; certificates themselves are checked by crypto/. */
#define LOG_PREFIX "varstore: "
#include "var_internal.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define DER_SEQUENCE 0x30
#define DER_SET 0x31
#define DER_OID 0x06
#define DER_VERSION 0xa0 /* [0] EXPLICIT Version */

/* What is left of an encoding to read. */
struct der {
	const UINT8 *p;
	size_t left;
};

/* One element: its tag, its contents and its whole encoding. */
struct der_item {
	UINT8 tag;
	struct pkcs7_blob contents;
	struct pkcs7_blob whole;
};

/* Reads the next element; false when it is malformed or runs past the end. */
static bool der_next(struct der *d, struct der_item *it)
{
	size_t len, head = 2;

	if (d->left < 2 || (d->p[0] & 0x1f) == 0x1f)
		return false;
	len = d->p[1];
	if (len & 0x80) {
		size_t n = len & 0x7f;
		if (!n || n > 4 || d->left < 2 + n)
			return false;
		len = 0;
		for (size_t i = 0; i < n; i++)
			len = (len << 8) | d->p[2 + i];
		head += n;
	}
	if (len > d->left - head)
		return false;
	it->tag = d->p[0];
	it->contents = (struct pkcs7_blob){d->p + head, len};
	it->whole = (struct pkcs7_blob){d->p, head + len};
	d->p += head + len;
	d->left -= head + len;
	return true;
}

/* Reads the next element, which must have this tag. */
static bool der_expect(struct der *d, UINT8 tag, struct der_item *it)
{
	return der_next(d, it) && it->tag == tag;
}

/* Certificate ::= SEQUENCE { tbsCertificate SEQUENCE, ... } */
static bool tbs_item(struct pkcs7_blob cert, struct der_item *tbs)
{
	struct der d = {cert.data, cert.size};
	struct der_item it;

	if (!der_expect(&d, DER_SEQUENCE, &it))
		return false;
	d = (struct der){it.contents.data, it.contents.size};
	return der_expect(&d, DER_SEQUENCE, tbs);
}

bool var_x509_tbs(struct pkcs7_blob cert, struct pkcs7_blob *tbs)
{
	struct der_item it;

	if (!tbs_item(cert, &it))
		return false;
	*tbs = it.whole;
	return true;
}

/* The value of the first commonName (2.5.4.3) attribute of a Name; size 0 when none. */
static bool name_common_name(struct pkcs7_blob name, struct pkcs7_blob *cn)
{
	static const UINT8 cn_oid[] = {0x55, 0x04, 0x03};
	struct der rdns = {name.data, name.size};
	struct der_item rdn, atv, oid, value;

	*cn = (struct pkcs7_blob){NULL, 0};
	while (rdns.left) {
		if (!der_expect(&rdns, DER_SET, &rdn))
			return false;
		struct der atvs = {rdn.contents.data, rdn.contents.size};
		while (atvs.left) {
			if (!der_expect(&atvs, DER_SEQUENCE, &atv))
				return false;
			struct der parts = {atv.contents.data, atv.contents.size};
			if (!der_expect(&parts, DER_OID, &oid) || !der_next(&parts, &value))
				return false;
			if (oid.contents.size == sizeof(cn_oid) &&
			    !mem_cmp(oid.contents.data, cn_oid, sizeof(cn_oid))) {
				*cn = value.contents;
				return true;
			}
		}
	}
	return true;
}

bool var_x509_common_name(struct pkcs7_blob cert, struct pkcs7_blob *cn)
{
	struct der d;
	struct der_item it;

	if (!tbs_item(cert, &it))
		return false;
	d = (struct der){it.contents.data, it.contents.size};
	if (!der_next(&d, &it))
		return false;
	/* Skip the optional version, then serialNumber, signature, issuer and validity. */
	for (int skip = it.tag == DER_VERSION ? 4 : 3; skip > 0; skip--)
		if (!der_next(&d, &it))
			return false;
	if (!der_expect(&d, DER_SEQUENCE, &it)) {
		log_debug("a signer's certificate has no subject\n");
		return false;
	}
	return name_common_name(it.contents, cn);
}
