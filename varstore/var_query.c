/* QueryVariableInfo (UEFI 2.10, 8.2.4): storage figures for one class of variables:
 * non-volatile, hardware error records (their own share of the non-volatile store), or
 * volatile. Sizes are record bytes on flash, so they add up exactly. */
#include "var_internal.h"
#include "format.h"

static EFI_STATUS check_query(const struct var_service *svc, UINT32 attributes)
{
	if (!attributes || (attributes & ~VAR_KNOWN))
		return EFI_INVALID_PARAMETER;
	/* 8.2.4: an attribute this platform does not support (time-based authentication
	 * needs the platform's cryptography). */
	if ((attributes & VAR_AUTH & ~VAR_AT) || ((attributes & VAR_AT) && !svc->verify))
		return EFI_UNSUPPORTED;
	if ((attributes & VAR_APPEND) || !(attributes & VAR_BS))
		return EFI_INVALID_PARAMETER;
	if ((attributes & VAR_HR) && (attributes & VAR_NBR) != VAR_NBR)
		return EFI_INVALID_PARAMETER;
	if (svc->at_runtime && !(attributes & VAR_RT))
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

EFI_STATUS var_query(struct var_service *svc, UINT32 attributes, UINT64 *max_storage,
		     UINT64 *remaining, UINT64 *max_size)
{
	const struct vstore *store = (attributes & VAR_NV) ? &svc->nv : &svc->vol;
	UINT32 capacity, used, largest;
	EFI_STATUS status;

	if (!max_storage || !remaining || !max_size)
		return EFI_INVALID_PARAMETER;
	status = check_query(svc, attributes);
	if (EFI_ERROR(status))
		return status;
	capacity = var_class_capacity(svc, store, attributes);
	used = var_class_used(store, attributes);
	/* The largest name and data that one record of the class's space can hold. */
	largest =
	    capacity > sizeof(struct vs_record_header)
		? ALIGN_DOWN(capacity - (UINT32)sizeof(struct vs_record_header), (UINT32)VS_ALIGN)
		: 0;
	*max_storage = capacity;
	*remaining = used < capacity ? capacity - used : 0;
	*max_size = MIN(largest, VARSTORE_MAX_VARIABLE);
	return EFI_SUCCESS;
}
