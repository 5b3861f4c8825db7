#define LOG_PREFIX "pkcs7: "
/* Certificates of a SignedData and the chain from its signer up to a trusted certificate.
 * mbedTLS parses the certificates and checks their signatures; the chain is built here
 * because UEFI trusts a db certificate anywhere in the chain, the signer's own included,
 * where mbedTLS's own verification trusts only self-issued certificates of its store. */
#include "pkcs7_internal.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include "mbedtls/md.h"

/* Longer chains than this are not followed (UEFI's are two or three long). */
#define CHAIN_MAX_DEPTH 8

void pkcs7_certs_load(const struct pkcs7_signed_data *sd, mbedtls_x509_crt *certs)
{
	struct der set;
	struct der_tlv cert;

	mbedtls_x509_crt_init(certs);
	if (!sd->has_certificates)
		return;
	set = der_inside(&sd->certificates);
	while (der_next(&set, &cert)) {
		/* One certificate the library cannot read (an algorithm left out of its
		 * configuration) must not hide the others. */
		if (mbedtls_x509_crt_parse_der_nocopy(certs, cert.raw, cert.raw_size) != 0)
			log_debug("a certificate of %zu bytes not parsed\n", cert.raw_size);
	}
}

static bool buf_eq(const mbedtls_x509_buf *buf, const uint8_t *p, size_t size)
{
	return buf->len == size && mem_cmp(buf->p, p, size) == 0;
}

const mbedtls_x509_crt *pkcs7_certs_find(const mbedtls_x509_crt *certs,
					 const struct pkcs7_signer_info *si)
{
	for (const mbedtls_x509_crt *c = certs; c && c->raw.len; c = c->next)
		if (buf_eq(&c->issuer_raw, si->issuer.raw, si->issuer.raw_size) &&
		    buf_eq(&c->serial, si->serial.value, si->serial.size))
			return c;
	return NULL;
}

/* Whether parent issued child: names match, parent may issue certificates (a v1
 * certificate, or a v3 one with the CA flag of basicConstraints) and its key verifies
 * child's signature. */
static bool cert_issued_by(const mbedtls_x509_crt *child, const mbedtls_x509_crt *parent)
{
	const mbedtls_md_info_t *md = mbedtls_md_info_from_type(child->sig_md);
	uint8_t digest[MBEDTLS_MD_MAX_SIZE];

	if (!buf_eq(&child->issuer_raw, parent->subject_raw.p, parent->subject_raw.len))
		return false;
	if (parent->version >= 3 && !parent->ca_istrue)
		return false;
	if (!md || mbedtls_md(md, child->tbs.p, child->tbs.len, digest) != 0)
		return false;
	return mbedtls_pk_verify_ext(child->sig_pk, child->sig_opts,
				     (mbedtls_pk_context *)&parent->pk, child->sig_md, digest,
				     mbedtls_md_get_size(md), child->sig.p, child->sig.len) == 0;
}

/* Whether cert is one of trusted[] (byte for byte) or was issued by one of them. */
static bool cert_trusted(const mbedtls_x509_crt *cert, const struct pkcs7_blob *trusted,
			 size_t n_trusted, const mbedtls_x509_crt *trusted_certs)
{
	for (size_t i = 0; i < n_trusted; i++)
		if (buf_eq(&cert->raw, trusted[i].data, trusted[i].size))
			return true;
	for (const mbedtls_x509_crt *t = trusted_certs; t && t->raw.len; t = t->next)
		if (cert_issued_by(cert, t))
			return true;
	return false;
}

/* The certificate of certs (other than cert) that issued cert, or NULL. */
static const mbedtls_x509_crt *find_issuer(const mbedtls_x509_crt *cert,
					   const mbedtls_x509_crt *certs)
{
	for (const mbedtls_x509_crt *c = certs; c && c->raw.len; c = c->next)
		if (c != cert && cert_issued_by(cert, c))
			return c;
	return NULL;
}

bool pkcs7_chain_trusted(const mbedtls_x509_crt *leaf, const mbedtls_x509_crt *certs,
			 const struct pkcs7_blob *trusted, size_t n_trusted,
			 const mbedtls_x509_crt **top)
{
	mbedtls_x509_crt trusted_certs;
	const mbedtls_x509_crt *cur = leaf;
	bool ok = n_trusted == 0;

	mbedtls_x509_crt_init(&trusted_certs);
	for (size_t i = 0; i < n_trusted; i++)
		if (mbedtls_x509_crt_parse_der_nocopy(&trusted_certs, trusted[i].data,
						      trusted[i].size) != 0)
			log_debug("trusted certificate %zu (%zu bytes) not parsed\n", i,
				  trusted[i].size);
	/* Up the chain p7 carries, to its top (the top is reported even once trusted). */
	for (int depth = 0; cur; depth++) {
		*top = cur;
		if (!ok)
			ok = cert_trusted(cur, trusted, n_trusted, &trusted_certs);
		if (depth + 1 >= CHAIN_MAX_DEPTH)
			break;
		cur = find_issuer(cur, certs);
	}
	mbedtls_x509_crt_free(&trusted_certs);
	return ok;
}
