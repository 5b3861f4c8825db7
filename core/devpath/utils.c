/* Device path node walking and the device path utilities (UEFI 2.10, 10.2, 10.5). */
#include <ember/core/devpath.h>
#include <ember/core/core.h>
#include <ember/lib/str.h>

static const EFI_DEVICE_PATH_PROTOCOL end_entire = {
    END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {DP_END_SIZE, 0}};

/* Copies size bytes of src into a new buffer with room for extra more bytes. */
static UINT8 *dp_alloc_copy(const void *src, UINTN size, UINTN extra)
{
	UINTN total;
	UINT8 *out;

	if (add_overflows(size, extra, &total))
		return NULL;
	out = pool_alloc(total);
	if (out && size)
		mem_copy(out, src, size);
	return out;
}

EFI_DEVICE_PATH_PROTOCOL *dp_dup(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	UINTN size = dp_size(path);

	if (!size)
		return NULL;
	return (EFI_DEVICE_PATH_PROTOCOL *)dp_alloc_copy(path, size, 0);
}

EFI_DEVICE_PATH_PROTOCOL *dp_append(const EFI_DEVICE_PATH_PROTOCOL *a,
				    const EFI_DEVICE_PATH_PROTOCOL *b)
{
	UINTN size_a, size_b;
	UINT8 *out;

	if (!a && !b)
		return dp_dup(&end_entire);
	if (!a)
		return dp_dup(b);
	if (!b)
		return dp_dup(a);
	size_a = dp_size(a);
	size_b = dp_size(b);
	if (!size_a || !size_b)
		return NULL;
	/* Keep a's nodes (its instance ends too) but only b's final End node. */
	size_a -= DP_END_SIZE;
	out = dp_alloc_copy(a, size_a, size_b);
	if (out)
		mem_copy(out + size_a, b, size_b);
	return (EFI_DEVICE_PATH_PROTOCOL *)out;
}

EFI_DEVICE_PATH_PROTOCOL *dp_append_node(const EFI_DEVICE_PATH_PROTOCOL *path,
					 const EFI_DEVICE_PATH_PROTOCOL *node)
{
	UINTN size, node_len;
	UINT8 *out;

	if (!node)
		return dp_dup(path ? path : &end_entire);
	node_len = dp_node_length(node);
	if (node_len < sizeof(EFI_DEVICE_PATH_PROTOCOL))
		return NULL;
	size = path ? dp_size(path) : DP_END_SIZE;
	if (!size)
		return NULL;
	size -= DP_END_SIZE;
	out = dp_alloc_copy(path, size, node_len + DP_END_SIZE);
	if (!out)
		return NULL;
	mem_copy(out + size, node, node_len);
	mem_copy(out + size + node_len, &end_entire, DP_END_SIZE);
	return (EFI_DEVICE_PATH_PROTOCOL *)out;
}

EFI_DEVICE_PATH_PROTOCOL *dp_append_instance(const EFI_DEVICE_PATH_PROTOCOL *path,
					     const EFI_DEVICE_PATH_PROTOCOL *instance)
{
	UINTN size, inst_size;
	UINT8 *out;

	if (!instance)
		return NULL;
	if (!path)
		return dp_dup(instance);
	size = dp_size(path);
	inst_size = dp_size(instance);
	if (!size || !inst_size)
		return NULL;
	out = dp_alloc_copy(path, size, inst_size);
	if (!out)
		return NULL;
	/* path's final End Entire becomes the separator between the two instances. */
	out[size - DP_END_SIZE + 1] = END_INSTANCE_DEVICE_PATH_SUBTYPE;
	mem_copy(out + size, instance, inst_size);
	return (EFI_DEVICE_PATH_PROTOCOL *)out;
}

EFI_DEVICE_PATH_PROTOCOL *dp_next_instance(EFI_DEVICE_PATH_PROTOCOL **instance, UINTN *size)
{
	EFI_DEVICE_PATH_PROTOCOL *node;
	UINTN bytes;
	UINT8 *out;

	if (size)
		*size = 0;
	if (!instance || !*instance)
		return NULL;
	for (node = *instance; !dp_is_end_instance(node); node = dp_next(node)) {
		if (dp_node_length(node) < sizeof(EFI_DEVICE_PATH_PROTOCOL)) {
			*instance = NULL;
			return NULL;
		}
	}
	bytes = (UINTN)((UINT8 *)node - (UINT8 *)*instance) + DP_END_SIZE;
	out = dp_alloc_copy(*instance, bytes, 0);
	if (!out)
		return NULL;
	out[bytes - DP_END_SIZE + 1] = END_ENTIRE_DEVICE_PATH_SUBTYPE;
	*instance = dp_is_end(node) ? NULL : dp_next(node);
	if (size)
		*size = bytes;
	return (EFI_DEVICE_PATH_PROTOCOL *)out;
}

EFI_DEVICE_PATH_PROTOCOL *dp_create_node(UINT8 type, UINT8 subtype, UINT16 length)
{
	EFI_DEVICE_PATH_PROTOCOL *node;

	if (length < sizeof(EFI_DEVICE_PATH_PROTOCOL))
		return NULL;
	node = pool_alloc(length);
	if (!node)
		return NULL;
	dp_set_node(node, type, subtype, length);
	return node;
}

EFI_DEVICE_PATH_PROTOCOL *dp_file_path(const CHAR16 *path)
{
	UINTN name_size, node_len;
	EFI_DEVICE_PATH_PROTOCOL *node;
	UINT8 *out;

	if (!path)
		return NULL;
	name_size = str16_size(path);
	node_len = sizeof(EFI_DEVICE_PATH_PROTOCOL) + name_size;
	if (node_len > 0xffff)
		return NULL;
	out = pool_alloc(node_len + DP_END_SIZE);
	if (!out)
		return NULL;
	node = (EFI_DEVICE_PATH_PROTOCOL *)out;
	dp_set_node(node, MEDIA_DEVICE_PATH, MEDIA_FILEPATH_DP, node_len);
	mem_copy(out + sizeof(*node), path, name_size);
	mem_copy(out + node_len, &end_entire, DP_END_SIZE);
	return node;
}
