/* Fuzzes time-based authenticated writes (varstore/var_auth.c, var_siglist.c, var_x509.c):
 * a program of SetVariable calls on PK, KEK, db, dbx and a private variable whose data
 * (descriptor, signature, signature lists) comes from the input, through a stand-in for
 * pkcs7_verify that accepts or refuses by the signature's first byte and names as signer
 * certificates slices of the signature (so the Common Name and tbsCertificate walk sees
 * arbitrary bytes); the signature list parser and merge also get the input directly.
 * Checks besides memory errors: a successful write reads back with its attributes, and
 * SetupMode always follows whether PK exists. */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include "../../varstore/var_internal.h"
#include <ember/lib/str.h>

#define FLASH_SIZE (2 * 8192)
#define FLASH_BLOCK 1024
#define NBRA 0x27u
#define APPEND 0x40u

struct input {
	const uint8_t *p;
	size_t left;
};

static UINT8 image[FLASH_SIZE];
static struct flash_ram flash;
static struct var_service svc;
static UINT8 *mem;

static const CHAR16 *const names[] = {u"PK", u"KEK", u"db", u"dbx", u"Private"};
static const EFI_GUID guids[] = {
    EFI_GLOBAL_VARIABLE,
    EFI_GLOBAL_VARIABLE,
    {0xd719b2cb, 0x3d3a, 0x4596, {0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f}},
    {0xd719b2cb, 0x3d3a, 0x4596, {0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f}},
    {0x12345678, 0x9abc, 0xdef0, {1, 2, 3, 4, 5, 6, 7, 8}},
};

static uint8_t byte(struct input *in)
{
	if (!in->left)
		return 0;
	in->left--;
	return *in->p++;
}

static EFI_STATUS fake_verify(struct pkcs7_blob p7, struct pkcs7_blob content,
			      const struct pkcs7_blob *trusted, size_t n_trusted,
			      struct pkcs7_signer *signer)
{
	size_t cut;

	(void)content, (void)trusted, (void)n_trusted;
	if (!p7.size)
		return EFI_INVALID_PARAMETER;
	if (p7.data[0] & 1)
		return EFI_SECURITY_VIOLATION;
	cut = 1 + (p7.data[0] >> 1) % p7.size;
	if (cut > p7.size)
		cut = p7.size;
	if (signer)
		*signer = (struct pkcs7_signer){{p7.data + 1, p7.size - 1},
						{p7.data + cut, p7.size - cut}};
	return EFI_SUCCESS;
}

static void fake_digest(enum hash_alg alg, const void *data, size_t size, uint8_t *digest)
{
	(void)alg;
	memset(digest, 0, 32);
	memcpy(digest, &size, sizeof(size));
	if (size)
		digest[8] = ((const uint8_t *)data)[size - 1];
}

static void check_modes(void)
{
	UINT8 setup = 0xee;
	UINTN size = 1;

	var_get(&svc, u"SetupMode", &efi_global_variable_guid, NULL, &size, &setup);
	if (setup != !var_pk_enrolled(&svc))
		abort();
}

static void one_call(struct input *in)
{
	static UINT8 value[VARSTORE_MAX_VARIABLE];
	uint8_t op = byte(in);
	UINT32 v = (op & 7) % 5, attributes = NBRA | (op & 0x10 ? APPEND : 0);
	size_t size = byte(in) | (size_t)byte(in) << 8;
	UINTN got = sizeof(value);
	UINT32 attr = 0;

	if (size > in->left)
		size = in->left;
	if (op & 0x20)
		attributes &= ~0x4u; /* other attributes than the variable's */
	if (var_set(&svc, names[v], &guids[v], attributes, size, in->p) == EFI_SUCCESS) {
		EFI_STATUS status = var_get(&svc, names[v], &guids[v], &attr, &got, value);
		if (status != EFI_NOT_FOUND &&
		    (status != EFI_SUCCESS || attr != (attributes & ~APPEND)))
			abort();
	}
	in->p += size, in->left -= size;
	check_modes();
}

/* The parsers on their own: validation, certificates, merge, the certificate walk. */
static void parsers(const uint8_t *data, size_t size)
{
	static UINT8 buf[2 * 4096];
	struct pkcs7_blob certs[8], cert = {data, size}, part;
	UINT32 n = size > 4096 ? 4096 : (UINT32)size, half = n / 2;

	var_siglist_valid(data, n);
	var_siglist_one_x509(data, n);
	var_siglist_x509(data, n, certs, 0, 8);
	memcpy(buf, data, half);
	UINT32 merged = half;
	var_siglist_merge(buf, &merged, sizeof(buf), data + half, n - half);
	var_x509_tbs(cert, &part);
	var_x509_common_name(cert, &part);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = {data, size};
	UINTN mem_size = var_service_mem_size(FLASH_SIZE);

	parsers(data, size);
	if (!mem)
		mem = aligned_alloc(16, mem_size);
	memset(image, 0xff, sizeof(image));
	flash_ram_init(&flash, image, FLASH_SIZE, FLASH_BLOCK);
	if (EFI_ERROR(var_service_init(&svc, &flash.dev, mem, mem_size, 0)))
		return 0;
	var_service_set_crypto(&svc, fake_verify, fake_digest);
	var_globals_install(&svc);
	for (int calls = 0; calls < 32 && in.left; calls++)
		one_call(&in);
	return 0;
}
