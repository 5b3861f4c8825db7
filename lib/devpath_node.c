/* Walking device paths (UEFI 2.10, chapter 10): the node-level functions, which neither
 * allocate nor need the core, so the firmware, applications and host tools share them. */
#include <ember/lib/devpath_node.h>
#include <ember/lib/str.h>

UINTN dp_node_length(const EFI_DEVICE_PATH_PROTOCOL *node)
{
	return (UINTN)node->Length[0] | ((UINTN)node->Length[1] << 8);
}

bool dp_is_end(const EFI_DEVICE_PATH_PROTOCOL *node)
{
	return node->Type == END_DEVICE_PATH_TYPE &&
	       node->SubType == END_ENTIRE_DEVICE_PATH_SUBTYPE;
}

bool dp_is_end_instance(const EFI_DEVICE_PATH_PROTOCOL *node)
{
	return node->Type == END_DEVICE_PATH_TYPE &&
	       (node->SubType == END_ENTIRE_DEVICE_PATH_SUBTYPE ||
		node->SubType == END_INSTANCE_DEVICE_PATH_SUBTYPE);
}

EFI_DEVICE_PATH_PROTOCOL *dp_next(const EFI_DEVICE_PATH_PROTOCOL *node)
{
	return (EFI_DEVICE_PATH_PROTOCOL *)((const UINT8 *)node + dp_node_length(node));
}

UINTN dp_size(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	const EFI_DEVICE_PATH_PROTOCOL *node = path;

	if (!path)
		return 0;
	for (;;) {
		/* A zero length would never reach the end; refuse rather than spin. */
		if (dp_node_length(node) < sizeof(EFI_DEVICE_PATH_PROTOCOL))
			return 0;
		if (dp_is_end(node))
			break;
		node = dp_next(node);
	}
	return (UINTN)((const UINT8 *)node - (const UINT8 *)path) + dp_node_length(node);
}

bool dp_is_valid(const EFI_DEVICE_PATH_PROTOCOL *path, UINTN max_size)
{
	const UINT8 *p = (const UINT8 *)path;
	UINTN left = max_size ? max_size : (UINTN)-1;

	if (!path)
		return false;
	while (left >= sizeof(EFI_DEVICE_PATH_PROTOCOL)) {
		const EFI_DEVICE_PATH_PROTOCOL *node = (const EFI_DEVICE_PATH_PROTOCOL *)p;
		UINTN len = dp_node_length(node);

		if (len < sizeof(EFI_DEVICE_PATH_PROTOCOL) || len > left)
			return false;
		if (dp_is_end_instance(node) && len != DP_END_SIZE)
			return false;
		if (dp_is_end(node))
			return true;
		p += len;
		left -= len;
	}
	return false;
}

bool dp_is_multi_instance(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	const EFI_DEVICE_PATH_PROTOCOL *node = path;

	if (!path)
		return false;
	while (!dp_is_end(node)) {
		if (dp_node_length(node) < sizeof(EFI_DEVICE_PATH_PROTOCOL))
			return false;
		if (dp_is_end_instance(node))
			return true;
		node = dp_next(node);
	}
	return false;
}

bool dp_starts_with(const EFI_DEVICE_PATH_PROTOCOL *path, const EFI_DEVICE_PATH_PROTOCOL *prefix)
{
	UINTN path_size, prefix_size;

	if (!path)
		return false;
	if (!prefix)
		return true;
	path_size = dp_size(path);
	prefix_size = dp_size(prefix);
	if (!path_size || !prefix_size || path_size < prefix_size)
		return false;
	/* Whole nodes compare equal byte for byte, headers included. */
	return mem_cmp(path, prefix, prefix_size - DP_END_SIZE) == 0;
}

void dp_set_node(EFI_DEVICE_PATH_PROTOCOL *node, UINT8 type, UINT8 subtype, UINTN length)
{
	node->Type = type;
	node->SubType = subtype;
	node->Length[0] = (UINT8)length;
	node->Length[1] = (UINT8)(length >> 8);
}

void dp_set_end(EFI_DEVICE_PATH_PROTOCOL *node)
{
	dp_set_node(node, END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, DP_END_SIZE);
}
