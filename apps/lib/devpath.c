/* Device path helpers. */
#include "devpath.h"

size_t dp_size(const EFI_DEVICE_PATH_PROTOCOL *dp)
{
	size_t size = 0;

	for (;;) {
		UINT16 len = dp_node_len(dp);
		if (len < sizeof(*dp))
			return 0;
		size += len;
		if (dp_is_end(dp))
			return size;
		dp = dp_next(dp);
	}
}

bool dp_equal(const EFI_DEVICE_PATH_PROTOCOL *a, const EFI_DEVICE_PATH_PROTOCOL *b)
{
	size_t sa = dp_size(a), sb = dp_size(b);

	return sa && sa == sb && mem_cmp(a, b, sa) == 0;
}

void dp_set_end(EFI_DEVICE_PATH_PROTOCOL *n)
{
	n->Type = END_DEVICE_PATH_TYPE;
	n->SubType = END_ENTIRE_DEVICE_PATH_SUBTYPE;
	dp_set_len(n, sizeof(*n));
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
		v->Header.Type = HARDWARE_DEVICE_PATH;
		v->Header.SubType = HW_VENDOR_DP;
		dp_set_len(&v->Header, sizeof(*v));
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
	hdr->Type = MEDIA_DEVICE_PATH;
	hdr->SubType = MEDIA_FILEPATH_DP;
	dp_set_len(hdr, (UINT16)node);
	mem_copy(out + sizeof(*hdr), name, name_size);
	dp_set_end((EFI_DEVICE_PATH_PROTOCOL *)(out + node));
	return hdr;
}
