/* Fake signatures for the variable services' unit tests (fake_pkcs7.h). */
#include <string.h>

#include "fake_pkcs7.h"
#include "test_varstore.h"
#include <efi/image_authentication.h>
#include <ember/lib/crc32.h>
#include <ember/lib/guids.h>

static const char fake_magic[6] = "FAKEP7";
UINT32 fake_pkcs7_calls;

void fake_key_init(struct fake_key *k, const char *cn)
{
	/* version [0] 2, serialNumber 1, then empty signature, issuer and validity */
	static const UINT8 head[] = {0xa0, 0x03, 0x02, 0x01, 0x02, 0x02, 0x01,
				     0x01, 0x30, 0x00, 0x30, 0x00, 0x30, 0x00};
	static const UINT8 tail[] = {0x30, 0x00, 0x03, 0x01, 0x00};
	UINT8 n = (UINT8)strlen(cn), *p = k->cert;
	/* subject: SEQUENCE { SET { SEQUENCE { OID 2.5.4.3, UTF8String cn } } } */
	const UINT8 name[] = {0x30, 11 + n, 0x31, 9 + n, 0x30, 7 + n, 0x06,
			      0x03, 0x55,   0x04, 0x03,	 0x0c, n};

	*p++ = 0x30, *p++ = 34 + n; /* Certificate */
	*p++ = 0x30, *p++ = 27 + n; /* tbsCertificate */
	memcpy(p, head, sizeof(head));
	p += sizeof(head);
	memcpy(p, name, sizeof(name));
	p += sizeof(name);
	memcpy(p, cn, n);
	p += n;
	memcpy(p, tail, sizeof(tail));
	k->cert_size = 36u + n;
}

static EFI_STATUS fake_verify(struct pkcs7_blob p7, struct pkcs7_blob content,
			      const struct pkcs7_blob *trusted, size_t n_trusted,
			      struct pkcs7_signer *signer)
{
	UINT16 cert_size;
	UINT32 crc;
	struct pkcs7_blob cert;
	bool ok = !n_trusted;

	fake_pkcs7_calls++;
	if (p7.size < 8 || memcmp(p7.data, fake_magic, 6))
		return EFI_INVALID_PARAMETER;
	memcpy(&cert_size, p7.data + 6, 2);
	if (p7.size != 8u + cert_size + 4)
		return EFI_INVALID_PARAMETER;
	cert = (struct pkcs7_blob){p7.data + 8, cert_size};
	memcpy(&crc, p7.data + 8 + cert_size, 4);
	if (crc != crc32(content.data, content.size))
		return EFI_SECURITY_VIOLATION;
	for (size_t i = 0; i < n_trusted; i++)
		ok |=
		    trusted[i].size == cert.size && !memcmp(trusted[i].data, cert.data, cert.size);
	if (!ok)
		return EFI_SECURITY_VIOLATION;
	if (signer)
		*signer = (struct pkcs7_signer){cert, cert};
	return EFI_SUCCESS;
}

/* Not SHA-256: four CRCs of the data spread over the digest. */
static void fake_digest(enum hash_alg alg, const void *data, size_t size, uint8_t *digest)
{
	(void)alg;
	memset(digest, 0, 32);
	for (UINT32 i = 0; i < 4; i++) {
		UINT32 c = crc32_update(i, data, size);
		memcpy(digest + 8 * i, &c, 4);
	}
}

void fake_crypto_install(struct var_service *svc)
{
	var_service_set_crypto(svc, fake_verify, fake_digest);
}

static UINT32 esl_header(UINT8 *out, const EFI_GUID *type, UINT32 entry, UINT32 count)
{
	EFI_SIGNATURE_LIST l = {*type, (UINT32)sizeof(l) + entry * count, 0, entry};

	memcpy(out, &l, sizeof(l));
	return sizeof(l);
}

UINT32 fake_esl_x509(UINT8 *out, const struct fake_key *k, UINT8 owner_tag)
{
	EFI_GUID owner = test_var_guid(100u + owner_tag);
	UINT32 n = esl_header(out, &efi_cert_x509_guid, 16 + k->cert_size, 1);

	memcpy(out + n, &owner, 16);
	memcpy(out + n + 16, k->cert, k->cert_size);
	return n + 16 + k->cert_size;
}

UINT32 fake_esl_sha256(UINT8 *out, UINT8 first, UINT32 count)
{
	EFI_GUID owner = test_var_guid(100);
	UINT32 n = esl_header(out, &efi_cert_sha256_guid, 48, count);

	for (UINT32 i = 0; i < count; i++, n += 48) {
		memcpy(out + n, &owner, 16);
		memset(out + n + 16, first + i, 32);
	}
	return n;
}

UINT32 fake_auth_write(UINT8 *out, const struct fake_key *k, const CHAR16 *name,
		       const EFI_GUID *guid, UINT32 attributes, UINT16 year, UINT8 second,
		       const void *payload, UINT32 payload_size)
{
	EFI_VARIABLE_AUTHENTICATION_2 d = {0};
	UINT32 p7_size = k ? 8 + k->cert_size + 4 : 0, name_size = 0, crc;
	UINT8 *p7 = out + sizeof(d), msg[0x10000];
	UINT16 cert_size = k ? (UINT16)k->cert_size : 0;

	d.TimeStamp = (EFI_TIME){.Year = year, .Month = 1, .Day = 1, .Second = second};
	d.AuthInfo.Hdr = (WIN_CERTIFICATE){(UINT32)sizeof(d.AuthInfo) + p7_size,
					   WIN_CERT_REVISION_2_0, WIN_CERT_TYPE_EFI_GUID};
	d.AuthInfo.CertType = efi_cert_type_pkcs7_guid;
	memcpy(out, &d, sizeof(d));
	while (name[name_size / 2])
		name_size += 2;
	memcpy(msg, name, name_size);
	memcpy(msg + name_size, guid, 16);
	memcpy(msg + name_size + 16, &attributes, 4);
	memcpy(msg + name_size + 20, &d.TimeStamp, 16);
	if (payload_size)
		memcpy(msg + name_size + 36, payload, payload_size);
	crc = crc32(msg, name_size + 36 + payload_size);
	if (k) {
		memcpy(p7, fake_magic, 6);
		memcpy(p7 + 6, &cert_size, 2);
		memcpy(p7 + 8, k->cert, k->cert_size);
		memcpy(p7 + 8 + k->cert_size, &crc, 4);
	}
	if (payload_size)
		memcpy(out + sizeof(d) + p7_size, payload, payload_size);
	return (UINT32)sizeof(d) + p7_size + payload_size;
}
