/* EFI_LOAD_OPTION parsing and building. The structure is packed and its description is
 * a UCS-2 string at an odd-friendly offset, so everything is read bytewise. */
#include <ember/lib/devpath_node.h>
#include <ember/lib/load_option.h>
#include <ember/lib/str.h>

#define HEAD_SIZE sizeof(EFI_LOAD_OPTION_HEAD)
#define KNOWN_ATTRIBUTES                                                                           \
	(LOAD_OPTION_ACTIVE | LOAD_OPTION_FORCE_RECONNECT | LOAD_OPTION_HIDDEN |                   \
	 LOAD_OPTION_CATEGORY)

/* Bytes up to and including the UCS-2 terminator at p, or 0 if there is none in size. */
static UINTN ucs2_size(const UINT8 *p, UINTN size)
{
	for (UINTN i = 0; i + 1 < size; i += 2)
		if (!p[i] && !p[i + 1])
			return i + 2;
	return 0;
}

/* FilePathList: whole device paths (each ending with End Entire), exactly filling its
 * length; the first is the image's, the others are for the OS to use. */
static bool path_list_ok(const UINT8 *p, UINTN size)
{
	while (size) {
		const EFI_DEVICE_PATH_PROTOCOL *path = (const EFI_DEVICE_PATH_PROTOCOL *)p;
		UINTN n;

		if (!dp_is_valid(path, size))
			return false;
		n = dp_size(path);
		if (!n || n > size)
			return false;
		p += n, size -= n;
	}
	return true;
}

const char *load_option_problem(const void *data, UINTN size, struct load_option *option)
{
	const UINT8 *p = data;
	EFI_LOAD_OPTION_HEAD head;
	UINTN rest, paths;
	UINT32 category;

	if (!data || size < HEAD_SIZE + 2)
		return "shorter than its fixed part";
	mem_copy(&head, p, HEAD_SIZE);
	category = head.Attributes & LOAD_OPTION_CATEGORY;
	if (head.Attributes & ~KNOWN_ATTRIBUTES)
		return "unknown attributes";
	if (category != LOAD_OPTION_CATEGORY_BOOT && category != LOAD_OPTION_CATEGORY_APP)
		return "unknown category";
	option->attributes = head.Attributes;
	option->description = (const CHAR16 *)(p + HEAD_SIZE);
	option->description_size = ucs2_size(p + HEAD_SIZE, size - HEAD_SIZE);
	if (!option->description_size)
		return "the description is not terminated";
	rest = size - HEAD_SIZE - option->description_size;
	paths = head.FilePathListLength;
	if (paths < sizeof(EFI_DEVICE_PATH_PROTOCOL) || paths > rest)
		return "FilePathListLength does not fit the option";
	option->file_path =
	    (const EFI_DEVICE_PATH_PROTOCOL *)(p + HEAD_SIZE + option->description_size);
	option->file_path_size = head.FilePathListLength;
	if (!path_list_ok((const UINT8 *)option->file_path, paths))
		return "FilePathList is not whole device paths";
	option->optional_data = (const UINT8 *)option->file_path + paths;
	option->optional_size = rest - paths;
	return NULL;
}

bool load_option_parse(const void *data, UINTN size, struct load_option *option)
{
	return !load_option_problem(data, size, option);
}

UINTN load_option_size(const struct load_option *option)
{
	return HEAD_SIZE + option->description_size + option->file_path_size +
	       option->optional_size;
}

void load_option_write(const struct load_option *option, void *out)
{
	UINT8 *p = out;
	EFI_LOAD_OPTION_HEAD head = {option->attributes, option->file_path_size};

	mem_copy(p, &head, HEAD_SIZE);
	p += HEAD_SIZE;
	mem_copy(p, option->description, option->description_size);
	p += option->description_size;
	mem_copy(p, option->file_path, option->file_path_size);
	p += option->file_path_size;
	mem_copy(p, option->optional_data, option->optional_size);
}
