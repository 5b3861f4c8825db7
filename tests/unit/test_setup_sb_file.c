/* The setup screen's key files and signature-list chains (apps/setup/pure/sb_file.c) and
 * its memory-map sum (apps/setup/pure/settings_memory.c). */
#include <string.h>

#include "support/test.h"
#include "../../apps/setup/pure/sb_file.h"
#include "../../apps/setup/pure/settings_memory.h"
#include <efi/boot_services.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

static const EFI_GUID owner_a = {1, 2, 3, {4, 5, 6, 7, 8, 9, 10, 11}};
static const EFI_GUID owner_b = {9, 9, 9, {9, 9, 9, 9, 9, 9, 9, 9}};

/* A DER-shaped certificate of n bytes: SEQUENCE (long form) { SEQUENCE {...} ... }. */
static size_t fake_cert(UINT8 *out, size_t n, UINT8 fill)
{
	memset(out, fill, n);
	out[0] = 0x30;
	out[1] = 0x82;
	out[2] = (UINT8)((n - 4) >> 8);
	out[3] = (UINT8)(n - 4);
	out[4] = 0x30;
	out[5] = 0x10;
	return n;
}

/* A list of count SHA-256 entries (owner, then 32 bytes of value i). */
static size_t sha_list(UINT8 *out, UINT32 count, UINT8 first)
{
	EFI_SIGNATURE_LIST l = {efi_cert_sha256_guid, 0, 0, 48};

	l.SignatureListSize = (UINT32)(sizeof(l) + count * 48);
	memcpy(out, &l, sizeof(l));
	for (UINT32 i = 0; i < count; i++) {
		memcpy(out + sizeof(l) + i * 48, &owner_b, 16);
		memset(out + sizeof(l) + i * 48 + 16, first + i, 32);
	}
	return l.SignatureListSize;
}

TEST(setup_sb_file_kinds)
{
	static UINT8 cert[300], esl[400], auth[600];
	size_t n = fake_cert(cert, sizeof(cert), 0x41);
	size_t e = sb_esl_from_der(cert, n, &owner_a, esl, sizeof(esl));
	EFI_VARIABLE_AUTHENTICATION_2 d = {0};

	EXPECT(sb_der_is_certificate(cert, n));
	EXPECT_EQ(sb_file_kind(cert, n), SB_FILE_DER);
	EXPECT_EQ(sb_file_kind(cert, n - 1), SB_FILE_UNKNOWN); /* cut short */
	EXPECT_EQ(e, sizeof(EFI_SIGNATURE_LIST) + 16 + n);
	EXPECT_EQ(sb_file_kind(esl, e), SB_FILE_ESL);
	EXPECT_EQ(sb_siglist_count(esl, e), 1);
	EXPECT_EQ(sb_esl_from_der(cert, n, &owner_a, esl, e - 1), 0); /* does not fit */
	/* An .auth: the descriptor (dwLength covers a 24-byte header and 8 bytes), the list. */
	d.AuthInfo.Hdr.dwLength = 32;
	d.AuthInfo.Hdr.wRevision = 0x200;
	d.AuthInfo.Hdr.wCertificateType = WIN_CERT_TYPE_EFI_GUID;
	d.AuthInfo.CertType = efi_cert_type_pkcs7_guid;
	memcpy(auth, &d, sizeof(d));
	memcpy(auth + 16 + 32, esl, e);
	EXPECT_EQ(sb_auth_payload(auth, 48 + e), 48);
	EXPECT_EQ(sb_file_kind(auth, 48 + e), SB_FILE_AUTH);
	EXPECT_EQ(sb_file_kind(auth, 48), SB_FILE_AUTH); /* an empty update (a deletion) */
	EXPECT_EQ(sb_file_kind(auth, 47), SB_FILE_UNKNOWN);
	EXPECT_EQ(sb_file_kind(auth, 48 + e - 1), SB_FILE_UNKNOWN); /* the list is cut */
	d.AuthInfo.Hdr.dwLength = 0xffffffff;
	memcpy(auth, &d, sizeof(d));
	EXPECT_EQ(sb_file_kind(auth, 48 + e), SB_FILE_UNKNOWN);
	EXPECT_EQ(sb_file_kind((const UINT8 *)"", 0), SB_FILE_UNKNOWN);
	EXPECT_EQ(sb_file_kind((const UINT8 *)"\x30\x00", 2), SB_FILE_UNKNOWN);
	EXPECT_EQ(sb_file_kind((const UINT8 *)"\x30\x02\x30\x00", 4), SB_FILE_DER);
	EXPECT(!sb_der_is_certificate((const UINT8 *)"\x30\x84\xff\xff\xff\xff\x30\x00", 8));
	EXPECT(!sb_der_is_certificate((const UINT8 *)"\x30\x81", 2));
}

TEST(setup_sb_siglist_walk)
{
	static UINT8 chain[1024];
	size_t size = sha_list(chain, 3, 0x10);
	struct sb_entry e;
	EFI_SIGNATURE_LIST l;

	size += sha_list(chain + size, 2, 0x20);
	EXPECT(sb_siglist_valid(chain, size));
	EXPECT(sb_siglist_valid(chain, 0));
	EXPECT_EQ(sb_siglist_count(chain, size), 5);
	ASSERT(sb_siglist_entry(chain, size, 3, &e));
	EXPECT(e.size == 32 && e.data[0] == 0x20 && !memcmp(&e.owner, &owner_b, 16));
	EXPECT(guid_eq(&e.type, &efi_cert_sha256_guid));
	EXPECT(!sb_siglist_entry(chain, size, 5, &e));
	/* Broken chains: cut, a list without entries, a size that is not whole entries. */
	EXPECT(!sb_siglist_valid(chain, size - 1));
	EXPECT_EQ(sb_siglist_count(chain, size - 1), 0);
	memcpy(&l, chain, sizeof(l));
	l.SignatureListSize = sizeof(l);
	memcpy(chain, &l, sizeof(l));
	EXPECT(!sb_siglist_valid(chain, size));
	l.SignatureListSize = sizeof(l) + 3 * 48 - 1;
	memcpy(chain, &l, sizeof(l));
	EXPECT(!sb_siglist_valid(chain, size));
	l.SignatureListSize = sizeof(l) + 3 * 48;
	l.SignatureSize = 8; /* smaller than the owner */
	memcpy(chain, &l, sizeof(l));
	EXPECT(!sb_siglist_valid(chain, size));
}

TEST(setup_sb_siglist_remove)
{
	static UINT8 chain[1024];
	size_t size = sha_list(chain, 2, 0x10), left;
	struct sb_entry e;

	size += sha_list(chain + size, 1, 0x20);
	left = sb_siglist_remove(chain, size, 0); /* the first list keeps one entry */
	EXPECT_EQ(left, size - 48);
	EXPECT_EQ(sb_siglist_count(chain, left), 2);
	ASSERT(sb_siglist_entry(chain, left, 0, &e));
	EXPECT_EQ(e.data[0], 0x11);
	size = left;
	left = sb_siglist_remove(chain, size, 1); /* the second list goes whole */
	EXPECT_EQ(left, size - sizeof(EFI_SIGNATURE_LIST) - 48);
	EXPECT(sb_siglist_valid(chain, left) && sb_siglist_count(chain, left) == 1);
	EXPECT_EQ(sb_siglist_remove(chain, left, 1), left); /* no such entry */
	EXPECT_EQ(sb_siglist_remove(chain, left, 0), 0);
	EXPECT_EQ(sb_siglist_remove(chain, left - 1, 0), left - 1); /* not valid: untouched */
}

TEST(setup_settings_memory_bytes)
{
	/* OVMF-sized descriptors (48 bytes): RAM types add up, MMIO and reserved do not. */
	static UINT8 map[48 * 5];
	static const UINT32 types[] = {EfiConventionalMemory, EfiBootServicesData,
				       EfiMemoryMappedIO, EfiReservedMemoryType, EfiACPIMemoryNVS};
	EFI_MEMORY_DESCRIPTOR d = {0};

	for (int i = 0; i < 5; i++) {
		d.Type = types[i];
		d.NumberOfPages = 256u << i;
		memcpy(map + 48 * i, &d, sizeof(d));
	}
	EXPECT_EQ(settings_memory_bytes(map, sizeof(map), 48), (256ull + 512 + 4096) << 12);
	EXPECT_EQ(settings_memory_bytes(map, sizeof(map) - 1, 48), (256ull + 512) << 12);
	EXPECT_EQ(settings_memory_bytes(map, sizeof(map), 8), 0);
}

TEST(setup_sb_pem_certificate)
{
	static const char pem[] = "junk before\n-----BEGIN CERTIFICATE-----\nMAYwAUEC\nAQc=\n"
				  "-----END CERTIFICATE-----\n";
	static const char broken[] = "-----BEGIN CERTIFICATE-----\nMA*G\n-----END CERTIFICATE-----";
	static const char unended[] = "-----BEGIN CERTIFICATE-----\nMAYwAUECAQc=\n";
	UINT8 der[16];

	EXPECT_EQ(sb_file_kind((const UINT8 *)pem, sizeof(pem) - 1), SB_FILE_PEM);
	EXPECT_EQ(sb_pem_to_der((const UINT8 *)pem, sizeof(pem) - 1, der, sizeof(der)), 8);
	EXPECT(!memcmp(der, "\x30\x06\x30\x01\x41\x02\x01\x07", 8));
	EXPECT_EQ(sb_pem_to_der((const UINT8 *)pem, sizeof(pem) - 1, der, 7), 0); /* no room */
	EXPECT_EQ(sb_pem_to_der((const UINT8 *)broken, sizeof(broken) - 1, der, sizeof(der)), 0);
	EXPECT_EQ(sb_pem_to_der((const UINT8 *)unended, sizeof(unended) - 1, der, sizeof(der)), 0);
	/* A cut inside the BEGIN line is not PEM at all. */
	EXPECT_EQ(sb_file_kind((const UINT8 *)pem, 20), SB_FILE_UNKNOWN);
}
