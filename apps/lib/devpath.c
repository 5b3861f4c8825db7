/* Device path helpers. */
#include "devpath.h"

bool dp_equal(const EFI_DEVICE_PATH_PROTOCOL *a, const EFI_DEVICE_PATH_PROTOCOL *b)
{
	size_t sa = dp_size(a), sb = dp_size(b);

	return sa && sa == sb && mem_cmp(a, b, sa) == 0;
}

EFI_DEVICE_PATH_PROTOCOL *dp_append(const EFI_DEVICE_PATH_PROTOCOL *a,
				    const EFI_DEVICE_PATH_PROTOCOL *b)
{
	size_t la = a ? dp_size(a) - sizeof(*a) : 0;
	size_t lb = b ? dp_size(b) : sizeof(EFI_DEVICE_PATH_PROTOCOL);
	UINT8 *out = app_alloc(la + lb);

	if (!out)
		return NULL;
	if (la)
		mem_copy(out, a, la);
	if (b)
		mem_copy(out + la, b, lb);
	else
		dp_set_end((EFI_DEVICE_PATH_PROTOCOL *)(out + la));
	return (EFI_DEVICE_PATH_PROTOCOL *)out;
}

EFI_DEVICE_PATH_PROTOCOL *dp_vendor_path(EFI_GUID *const *guids, size_t count)
{
	size_t size = count * sizeof(VENDOR_DEVICE_PATH) + sizeof(EFI_DEVICE_PATH_PROTOCOL);
	UINT8 *out = app_alloc(size);
	VENDOR_DEVICE_PATH *v = (VENDOR_DEVICE_PATH *)out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < count; i++, v++) {
		dp_set_node(&v->Header, HARDWARE_DEVICE_PATH, HW_VENDOR_DP, sizeof(*v));
		mem_copy(&v->Guid, guids[i], sizeof(EFI_GUID));
	}
	dp_set_end((EFI_DEVICE_PATH_PROTOCOL *)v);
	return (EFI_DEVICE_PATH_PROTOCOL *)out;
}

EFI_DEVICE_PATH_PROTOCOL *dp_file_path(const CHAR16 *name)
{
	size_t name_size = str16_size(name);
	size_t node = sizeof(EFI_DEVICE_PATH_PROTOCOL) + name_size;
	UINT8 *out = app_alloc(node + sizeof(EFI_DEVICE_PATH_PROTOCOL));
	EFI_DEVICE_PATH_PROTOCOL *hdr = (EFI_DEVICE_PATH_PROTOCOL *)out;

	if (!out)
		return NULL;
	dp_set_node(hdr, MEDIA_DEVICE_PATH, MEDIA_FILEPATH_DP, node);
	mem_copy(out + sizeof(*hdr), name, name_size);
	dp_set_end((EFI_DEVICE_PATH_PROTOCOL *)(out + node));
	return hdr;
}
