/* The variable services' state: a non-volatile store on the platform's flash and a
 * volatile one on a RAM flash, both in memory the caller provides; finding a variable in
 * either; the space each class of variables may use. */
#include "var_internal.h"
#include "format.h"
#include <ember/lib/str.h>

#define VOLATILE_BLOCK 0x1000u
/* Hardware error records keep a share of the non-volatile store for themselves, so a
 * store full of ordinary variables can still record an error (appendix P). */
#define HWERR_SHARE 32

UINTN var_service_mem_size(UINT32 nv_size)
{
	return VARSTORE_VOLATILE_SIZE + vstore_mem_size(VARSTORE_VOLATILE_SIZE) +
	       vstore_mem_size(nv_size) + VAR_AUTH_MEM_SIZE;
}

EFI_STATUS var_service_init(struct var_service *svc, struct flash_device *nv, void *mem,
			    UINTN mem_size, UINT32 flags)
{
	UINT8 *m = mem;
	UINTN vol_mem = vstore_mem_size(VARSTORE_VOLATILE_SIZE);
	EFI_STATUS status;

	if (mem_size < var_service_mem_size(nv->size))
		return EFI_BUFFER_TOO_SMALL;
	svc->at_runtime = false;
	svc->verify = NULL;
	svc->digest = NULL;
	svc->auth_mem = m;
	m += VAR_AUTH_MEM_SIZE;
	mem_set(m, 0xff, VARSTORE_VOLATILE_SIZE);
	flash_ram_init(&svc->vol_flash, m, VARSTORE_VOLATILE_SIZE, VOLATILE_BLOCK);
	m += VARSTORE_VOLATILE_SIZE;
	status = vstore_mount(&svc->vol, &svc->vol_flash.dev, m, vol_mem, VSTORE_ERASED);
	if (EFI_ERROR(status))
		return status;
	m += vol_mem;
	return vstore_mount(&svc->nv, nv, m, vstore_mem_size(nv->size), flags);
}

UINT32 var_name_size(const CHAR16 *name)
{
	UINTN units = str16_nlen(name, VARSTORE_MAX_VARIABLE / sizeof(CHAR16));

	if (!units || units >= VARSTORE_MAX_VARIABLE / sizeof(CHAR16))
		return 0;
	return (UINT32)((units + 1) * sizeof(CHAR16));
}

bool var_lookup(struct var_service *svc, const CHAR16 *name, UINT32 name_size, const EFI_GUID *guid,
		struct var_ref *ref)
{
	UINT32 hash = vs_hash(name, name_size, guid);
	struct vstore *stores[] = {&svc->nv, &svc->vol};

	for (UINT32 i = 0; i < ARRAY_SIZE(stores); i++) {
		UINT32 e = vs_index_find(stores[i], hash, name, name_size, guid);
		if (e != VSTORE_NONE) {
			const struct vstore_entry *entry = vstore_entry(stores[i], e);
			/* Time-based authenticated variables keep a head (their timestamp and
			 * signer) in front of the value. */
			UINT32 head =
			    (entry->attributes & VAR_AT)
				? MIN(entry->data_size, (UINT32)sizeof(struct vs_auth_head))
				: 0;
			*ref = (struct var_ref){stores[i], e, entry->attributes,
						entry->data_size - head, head};
			return true;
		}
	}
	return false;
}

bool var_visible(const struct var_service *svc, UINT32 attributes)
{
	return !svc->at_runtime || (attributes & VAR_RT);
}

static UINT32 hwerr_reserve(const struct var_service *svc)
{
	return ALIGN_DOWN(vstore_usable(&svc->nv) / HWERR_SHARE, (UINT32)VS_ALIGN);
}

UINT32 var_class_capacity(const struct var_service *svc, const struct vstore *store,
			  UINT32 attributes)
{
	if (store != &svc->nv)
		return (attributes & VAR_HR) ? 0 : vstore_usable(store);
	if (attributes & VAR_HR)
		return hwerr_reserve(svc);
	return vstore_usable(store) - hwerr_reserve(svc);
}

UINT32 var_class_used(const struct vstore *store, UINT32 attributes)
{
	return store->live_bytes[(attributes & VAR_HR) ? 1 : 0];
}

static void convert_function(void *pointer_to_function, void (*convert)(void **, void *), void *ctx)
{
	convert((void **)pointer_to_function, ctx);
}

void var_service_set_crypto(struct var_service *svc, var_verify_fn verify, var_digest_fn digest)
{
	svc->verify = verify;
	svc->digest = digest;
}

void var_service_convert(struct var_service *svc, void (*convert)(void **pointer, void *ctx),
			 void *ctx)
{
	vstore_convert(&svc->nv, convert, ctx);
	vstore_convert(&svc->vol, convert, ctx);
	convert((void **)&svc->vol_flash.bytes, ctx);
	convert((void **)&svc->auth_mem, ctx);
	if (svc->verify)
		convert_function(&svc->verify, convert, ctx);
	if (svc->digest)
		convert_function(&svc->digest, convert, ctx);
	convert_function(&svc->vol_flash.dev.read, convert, ctx);
	convert_function(&svc->vol_flash.dev.program, convert, ctx);
	convert_function(&svc->vol_flash.dev.erase, convert, ctx);
}
