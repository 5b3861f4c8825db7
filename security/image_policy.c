/* Secure Boot's decision on an image (UEFI 2.10 32.5.3): dbx first (the image's digest, a
 * signature chaining to a dbx certificate, the digest of a signer's certificate), then db
 * (a signature chaining to a db certificate, or the image's digest). Pure: the caller
 * reads the variables; tests give it databases made by efitools. */
#define LOG_PREFIX "secureboot: "
#include <ember/core/image_policy.h>
#include <ember/core/log.h>
#include <ember/crypto/authenticode.h>
#include <ember/crypto/der.h>
#include <ember/crypto/siglist.h>
#include <ember/lib/str.h>

/* Certificates of db used as trust anchors at once (Microsoft's db holds two). */
#define MAX_TRUSTED 64
#define NO_CONTENT ((struct pkcs7_blob){NULL, 0})

/* The image's digests, each computed when first needed. */
struct digests {
	const void *image;
	size_t size;
	bool done[4];
	uint8_t value[4][HASH_MAX_SIZE];
};

static const uint8_t *digest_of(struct digests *d, enum hash_alg alg)
{
	if (!d->done[alg]) {
		if (EFI_ERROR(authenticode_digest(d->image, d->size, alg, d->value[alg])))
			return NULL;
		d->done[alg] = true;
	}
	return d->value[alg];
}

static bool hash_entry_alg(enum siglist_type type, enum hash_alg *alg)
{
	switch (type) {
	case SIGLIST_SHA1:
		*alg = HASH_SHA1;
		return true;
	case SIGLIST_SHA256:
	case SIGLIST_X509_SHA256:
		*alg = HASH_SHA256;
		return true;
	case SIGLIST_SHA384:
	case SIGLIST_X509_SHA384:
		*alg = HASH_SHA384;
		return true;
	case SIGLIST_SHA512:
	case SIGLIST_X509_SHA512:
		*alg = HASH_SHA512;
		return true;
	default:
		return false;
	}
}

/* The whole EFI_SIGNATURE_DATA of an entry (its owner GUID precedes its data). */
static struct image_authority authority_of(const struct siglist_entry *e)
{
	return (struct image_authority){e->data - sizeof(EFI_GUID), e->size + sizeof(EFI_GUID)};
}

/* Whether a list holds one of the image's digests (each hash entry in its algorithm);
 * found (may be NULL) receives the entry. */
static bool digest_listed(const void *list, size_t size, struct digests *d,
			  struct image_authority *found)
{
	struct siglist_iter it;
	struct siglist_entry e;
	enum hash_alg alg;

	siglist_begin(&it, list, size);
	while (siglist_next(&it, &e) == EFI_SUCCESS) {
		const uint8_t *digest;
		if (e.type == SIGLIST_X509_SHA256 || e.type == SIGLIST_X509_SHA384 ||
		    e.type == SIGLIST_X509_SHA512 || !hash_entry_alg(e.type, &alg) ||
		    e.size != hash_size(alg))
			continue;
		digest = digest_of(d, alg);
		if (digest && mem_cmp(digest, e.data, e.size) == 0) {
			if (found)
				*found = authority_of(&e);
			return true;
		}
	}
	return false;
}

/* The tbsCertificate of a DER certificate: what EFI_CERT_X509_SHA* entries hash
 * (Certificate ::= SEQUENCE { tbsCertificate SEQUENCE, ... }). */
static bool cert_tbs(struct pkcs7_blob cert, struct pkcs7_blob *tbs)
{
	struct der d = {cert.data, cert.size};
	struct der_tlv it;

	if (!der_expect(&d, DER_SEQUENCE, &it))
		return false;
	d = der_inside(&it);
	if (!der_expect(&d, DER_SEQUENCE, &it))
		return false;
	*tbs = (struct pkcs7_blob){it.raw, it.raw_size};
	return true;
}

/* Whether an EFI_CERT_X509_SHA* entry revokes cert (the time of revocation is not
 * compared: Ember keeps no dbt timestamps, so a listed certificate is always revoked). */
static bool cert_digest_matches(const struct siglist_entry *e, struct pkcs7_blob cert)
{
	uint8_t digest[HASH_MAX_SIZE];
	struct pkcs7_blob tbs;
	enum hash_alg alg;

	if (!cert.data || !hash_entry_alg(e->type, &alg) || e->size < hash_size(alg) ||
	    !cert_tbs(cert, &tbs))
		return false;
	hash_buffer(alg, tbs.data, tbs.size, digest);
	return mem_cmp(digest, e->data, hash_size(alg)) == 0;
}

/* Whether an EFI_CERT_X509_SHA* entry names a certificate of db that p7 chains to. */
static bool anchor_revoked(struct pkcs7_blob p7, const struct siglist_entry *e,
			   const struct pkcs7_blob *trusted, size_t n_trusted)
{
	for (size_t i = 0; i < n_trusted; i++)
		if (cert_digest_matches(e, trusted[i]) &&
		    pkcs7_verify(p7, NO_CONTENT, &trusted[i], 1, NULL) == EFI_SUCCESS)
			return true;
	return false;
}

/* Whether dbx revokes a valid signature: it chains to a dbx certificate, or the digest of
 * a certificate of its chain is listed (its signer's, the top one it carries, or the db
 * certificate it chains to). */
static bool signature_revoked(struct pkcs7_blob p7, const struct pkcs7_signer *signer,
			      const struct image_databases *dbs, const struct pkcs7_blob *trusted,
			      size_t n_trusted)
{
	struct siglist_iter it;
	struct siglist_entry e;

	siglist_begin(&it, dbs->dbx, dbs->dbx_size);
	while (siglist_next(&it, &e) == EFI_SUCCESS) {
		struct pkcs7_blob cert = {e.data, e.size};
		if (e.type == SIGLIST_X509 && pkcs7_verify(p7, NO_CONTENT, &cert, 1, NULL) == 0)
			return true;
		if ((e.type == SIGLIST_X509_SHA256 || e.type == SIGLIST_X509_SHA384 ||
		     e.type == SIGLIST_X509_SHA512) &&
		    (cert_digest_matches(&e, signer->leaf) ||
		     cert_digest_matches(&e, signer->top) ||
		     anchor_revoked(p7, &e, trusted, n_trusted)))
			return true;
	}
	return false;
}

/* The X.509 certificates of db, and in entries the EFI_SIGNATURE_DATA each came from. */
static size_t db_certificates(const struct image_databases *dbs, struct pkcs7_blob *trusted,
			      struct image_authority *entries)
{
	struct siglist_iter it;
	struct siglist_entry e;
	size_t n = 0;

	siglist_begin(&it, dbs->db, dbs->db_size);
	while (siglist_next(&it, &e) == EFI_SUCCESS) {
		if (e.type != SIGLIST_X509)
			continue;
		if (n == MAX_TRUSTED) {
			log_debug("db has more than %u certificates: the rest are not used\n",
				  MAX_TRUSTED);
			break;
		}
		entries[n] = authority_of(&e);
		trusted[n++] = (struct pkcs7_blob){e.data, e.size};
	}
	return n;
}

/* The db certificate p7 verifies to (its index), or n_trusted for none: one anchor at a
 * time, since measured boot logs the one that verified (PFP 3.3.4.8). */
static size_t trusted_anchor(struct pkcs7_blob p7, const struct pkcs7_blob *trusted,
			     size_t n_trusted)
{
	size_t i;

	for (i = 0; i < n_trusted; i++)
		if (pkcs7_verify(p7, NO_CONTENT, &trusted[i], 1, NULL) == EFI_SUCCESS)
			break;
	return i;
}

/* What one signature says: IMAGE_ALLOWED when it verifies to db (*anchor: which
 * certificate), else why not. */
static enum image_verdict check_signature(struct pkcs7_blob p7, struct digests *d,
					  const struct image_databases *dbs,
					  const struct pkcs7_blob *trusted, size_t n_trusted,
					  size_t *anchor)
{
	struct pkcs7_blob signed_digest;
	struct pkcs7_signer signer;
	const uint8_t *digest;
	enum hash_alg alg;
	EFI_STATUS status = authenticode_signed_digest(p7, &alg, &signed_digest);

	if (EFI_ERROR(status)) {
		log_debug("a signature is no Authenticode signature: %r\n", status);
		return status == EFI_UNSUPPORTED ? IMAGE_BAD_SIGNATURE : IMAGE_MALFORMED;
	}
	digest = digest_of(d, alg);
	if (!digest)
		return IMAGE_MALFORMED;
	if (signed_digest.size != hash_size(alg) ||
	    mem_cmp(digest, signed_digest.data, signed_digest.size) != 0) {
		log_debug("a signature signs another digest than the image's\n");
		return IMAGE_BAD_SIGNATURE;
	}
	/* Valid at all (and by whom), whoever trusts it. */
	status = pkcs7_verify(p7, NO_CONTENT, NULL, 0, &signer);
	if (EFI_ERROR(status)) {
		log_debug("a signature does not verify: %r\n", status);
		return status == EFI_INVALID_PARAMETER ? IMAGE_MALFORMED : IMAGE_BAD_SIGNATURE;
	}
	if (signature_revoked(p7, &signer, dbs, trusted, n_trusted))
		return IMAGE_SIGNER_IN_DBX;
	*anchor = trusted_anchor(p7, trusted, n_trusted);
	return *anchor < n_trusted ? IMAGE_ALLOWED : IMAGE_UNKNOWN_SIGNER;
}

/* The verdict of the signatures: allowed when one is, unless one is revoked or malformed;
 * else the most telling refusal (bad signature over unknown signer). */
static enum image_verdict check_signatures(struct digests *d, const struct image_databases *dbs,
					   bool *any, struct image_authority *authority)
{
	struct pkcs7_blob trusted[MAX_TRUSTED], p7;
	struct image_authority entries[MAX_TRUSTED];
	size_t n_trusted = db_certificates(dbs, trusted, entries);
	enum image_verdict verdict = IMAGE_NO_SIGNATURE;
	struct authenticode_certs certs;
	bool allowed = false;
	EFI_STATUS status = authenticode_certs_begin(d->image, d->size, &certs);

	*any = false;
	if (status == EFI_NOT_FOUND)
		return IMAGE_NO_SIGNATURE;
	if (EFI_ERROR(status))
		return IMAGE_MALFORMED;
	while ((status = authenticode_certs_next(&certs, &p7)) == EFI_SUCCESS) {
		size_t anchor = n_trusted;
		enum image_verdict v = check_signature(p7, d, dbs, trusted, n_trusted, &anchor);
		*any = true;
		if (v == IMAGE_SIGNER_IN_DBX || v == IMAGE_MALFORMED)
			return v;
		if (v == IMAGE_ALLOWED && !allowed && authority)
			*authority = entries[anchor];
		if (v == IMAGE_ALLOWED)
			allowed = true;
		else if (verdict != IMAGE_BAD_SIGNATURE)
			verdict = v;
	}
	if (status != EFI_NOT_FOUND) {
		log_debug("the certificate table is malformed: %r\n", status);
		return IMAGE_MALFORMED;
	}
	return allowed ? IMAGE_ALLOWED : verdict;
}

/* The verdict; *authority the db entry that allowed the image, and sha256 (when not NULL)
 * the image's Authenticode SHA-256 once computed. */
static enum image_verdict policy_check(const void *image, size_t size,
				       const struct image_databases *dbs,
				       struct image_authority *authority, uint8_t *sha256)
{
	struct digests d = {.image = image, .size = size};
	enum image_verdict verdict;
	bool signed_image;

	/* The store checks both lists when they are written; refuse rather than guess if
	 * one is not well formed after all. */
	if (EFI_ERROR(siglist_check(dbs->db, dbs->db_size, true)) ||
	    EFI_ERROR(siglist_check(dbs->dbx, dbs->dbx_size, true))) {
		log_debug("db or dbx is malformed\n");
		return IMAGE_MALFORMED;
	}
	if (!digest_of(&d, HASH_SHA256)) {
		log_debug("the image is no well-formed PE/COFF file\n");
		return IMAGE_MALFORMED;
	}
	if (sha256)
		mem_copy(sha256, d.value[HASH_SHA256], 32);
	if (digest_listed(dbs->dbx, dbs->dbx_size, &d, NULL))
		return IMAGE_HASH_IN_DBX;
	verdict = check_signatures(&d, dbs, &signed_image, authority);
	if (verdict == IMAGE_ALLOWED || verdict == IMAGE_SIGNER_IN_DBX ||
	    verdict == IMAGE_MALFORMED)
		return verdict;
	if (digest_listed(dbs->db, dbs->db_size, &d, authority))
		return IMAGE_ALLOWED;
	return signed_image ? verdict : IMAGE_NO_SIGNATURE;
}

enum image_verdict image_policy_check(const void *image, size_t size,
				      const struct image_databases *dbs)
{
	return policy_check(image, size, dbs, NULL, NULL);
}

enum image_verdict image_policy_check_authority(const void *image, size_t size,
						const struct image_databases *dbs,
						struct image_authority *authority)
{
	struct image_authority found = {NULL, 0, {0}};
	uint8_t sha256[32] = {0};
	/* The entry found is overwritten whole on the way: the digest comes apart. */
	enum image_verdict verdict = policy_check(image, size, dbs, &found, sha256);

	/* A signature allowed before a later one was found revoked allowed nothing. */
	*authority = verdict == IMAGE_ALLOWED ? found : (struct image_authority){NULL, 0, {0}};
	mem_copy(authority->sha256, sha256, sizeof(sha256));
	return verdict;
}

const char *image_verdict_text(enum image_verdict verdict)
{
	switch (verdict) {
	case IMAGE_ALLOWED:
		return "allowed";
	case IMAGE_HASH_IN_DBX:
		return "hash in dbx";
	case IMAGE_SIGNER_IN_DBX:
		return "signer's certificate in dbx";
	case IMAGE_NO_SIGNATURE:
		return "no signature";
	case IMAGE_UNKNOWN_SIGNER:
		return "unknown signer";
	case IMAGE_BAD_SIGNATURE:
		return "bad signature";
	default:
		return "malformed";
	}
}
