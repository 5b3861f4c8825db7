/* EFI_FIRMWARE_VOLUME2_PROTOCOL (PI 1.8 volume 3, 3.4.1) over a memory-mapped volume that
 * Ember only reads: files and sections come from lib/fv.c's bounded reader, so a damaged
 * file is never handed out (its data checksum is checked on every read). */
#define LOG_PREFIX "fv: "
#include "fv_internal.h"
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

static struct fv_instance *instance_of(const EFI_FIRMWARE_VOLUME2_PROTOCOL *proto)
{
	struct fv_instance *fv;

	if (!proto)
		return NULL;
	fv = container_of(proto, struct fv_instance, proto);
	return fv->signature == FV_INSTANCE_SIGNATURE ? fv : NULL;
}

/* The file named name: EFI_DEVICE_ERROR (and why) when it is damaged. */
EFI_STATUS fv_find_file(const struct fv_instance *fv, const EFI_GUID *name, struct fv_file *file)
{
	size_t offset = fv->vol.files_start;
	const char *why;
	enum fv_walk walk;

	while ((walk = fv_next_file(&fv->vol, &offset, file, &why)) != FV_WALK_END) {
		if (walk == FV_WALK_BROKEN) {
			log_debug("the volume is damaged: %s\n", why);
			return EFI_NOT_FOUND;
		}
		if (!guid_eq(&file->name, name))
			continue;
		if (walk == FV_WALK_DAMAGED) {
			char text[37];
			guid_to_str(text, name);
			log_debug("file %s: %s\n", text, why);
			return EFI_DEVICE_ERROR;
		}
		return EFI_SUCCESS;
	}
	return EFI_NOT_FOUND;
}

static EFI_FV_FILE_ATTRIBUTES file_attributes(const struct fv_file *file)
{
	return EFI_FV_FILE_ATTRIB_MEMORY_MAPPED |
	       (file->attributes & FFS_ATTRIB_FIXED ? EFI_FV_FILE_ATTRIB_FIXED : 0);
}

/* Hands data out as ReadFile and ReadSection do: into a new pool buffer when *buffer is
 * NULL, else into the caller's, cut to *size with EFI_WARN_BUFFER_TOO_SMALL. */
static EFI_STATUS hand_out(const void *data, UINTN data_size, VOID **buffer, UINTN *size)
{
	EFI_STATUS status = EFI_SUCCESS;
	UINTN copy = data_size;

	if (!*buffer) {
		*buffer = pool_alloc(data_size ? data_size : 1);
		if (!*buffer)
			return EFI_OUT_OF_RESOURCES;
	} else if (*size < data_size) {
		copy = *size;
		status = EFI_WARN_BUFFER_TOO_SMALL;
	}
	mem_copy(*buffer, data, copy);
	*size = data_size;
	return status;
}

static EFI_STATUS EFIAPI fv_get_volume_attributes(const EFI_FIRMWARE_VOLUME2_PROTOCOL *this,
						  EFI_FV_ATTRIBUTES *attributes)
{
	struct fv_instance *fv = instance_of(this);

	if (!fv || !attributes)
		return EFI_INVALID_PARAMETER;
	/* The low capability and status bits and the alignment share their places with
	 * the header's EFI_FVB2 ones; Ember never writes, whatever the flash allows. */
	*attributes = (fv->vol.attributes & (EFI_FV2_ALIGNMENT | 0xF0C7)) | EFI_FV2_READ_STATUS;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fv_set_volume_attributes(const EFI_FIRMWARE_VOLUME2_PROTOCOL *this,
						  EFI_FV_ATTRIBUTES *attributes)
{
	EFI_FV_ATTRIBUTES now;

	if (!attributes || EFI_ERROR(fv_get_volume_attributes(this, &now)))
		return EFI_INVALID_PARAMETER;
	/* Nothing of a read-only volume can change. */
	if (*attributes != now) {
		*attributes = now;
		return EFI_ACCESS_DENIED;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fv_read_file(const EFI_FIRMWARE_VOLUME2_PROTOCOL *this,
				      const EFI_GUID *name, VOID **buffer, UINTN *size,
				      EFI_FV_FILETYPE *found_type,
				      EFI_FV_FILE_ATTRIBUTES *attributes, UINT32 *auth)
{
	struct fv_instance *fv = instance_of(this);
	struct fv_file file;
	EFI_STATUS status;

	if (!fv || !name || !size || !found_type || !attributes || !auth)
		return EFI_INVALID_PARAMETER;
	status = fv_find_file(fv, name, &file);
	if (EFI_ERROR(status))
		return status;
	*found_type = file.type;
	*attributes = file_attributes(&file);
	*auth = 0;
	if (!buffer) { /* only the size and type were asked for */
		*size = file.data_size;
		return EFI_SUCCESS;
	}
	return hand_out(file.data, file.data_size, buffer, size);
}

static void *section_alloc(void *ctx, size_t size)
{
	return pool_alloc_typed(EfiBootServicesData, size);
}

static void section_release(void *ctx, void *block)
{
	pool_free(block);
}

const struct fv_memory fv_pool_memory = {section_alloc, section_release, NULL};

static EFI_STATUS EFIAPI fv_read_section(const EFI_FIRMWARE_VOLUME2_PROTOCOL *this,
					 const EFI_GUID *name, EFI_SECTION_TYPE type,
					 UINTN instance, VOID **buffer, UINTN *size, UINT32 *auth)
{
	struct fv_instance *fv = instance_of(this);
	struct fv_found found;
	struct fv_file file;
	const char *why;
	EFI_STATUS status;

	if (!fv || !name || !buffer || !size || !auth)
		return EFI_INVALID_PARAMETER;
	status = fv_find_file(fv, name, &file);
	if (EFI_ERROR(status))
		return status;
	why = fv_find_section(file.data, file.data_size, type, instance, &fv_pool_memory, &found);
	if (why) {
		char text[37];
		guid_to_str(text, name);
		log_debug("file %s, section type 0x%x #%llu: %s\n", text, type,
			  (unsigned long long)instance, why);
		return str8_cmp(why, "not found") == 0 ? EFI_NOT_FOUND
		       : str8_cmp(why, "no memory to decompress a section") == 0
			   ? EFI_OUT_OF_RESOURCES
			   : EFI_DEVICE_ERROR;
	}
	*auth = 0;
	status = hand_out(found.section.data, found.section.data_size, buffer, size);
	pool_free(found.owned);
	return status;
}

static EFI_STATUS EFIAPI fv_write_file(const EFI_FIRMWARE_VOLUME2_PROTOCOL *this, UINT32 count,
				       EFI_FV_WRITE_POLICY policy, EFI_FV_WRITE_FILE_DATA *data)
{
	return instance_of(this) ? EFI_WRITE_PROTECTED : EFI_INVALID_PARAMETER;
}

/* The key is the offset where the walk goes on (0: the start). */
static EFI_STATUS EFIAPI fv_get_next_file(const EFI_FIRMWARE_VOLUME2_PROTOCOL *this, VOID *key,
					  EFI_FV_FILETYPE *type, EFI_GUID *name,
					  EFI_FV_FILE_ATTRIBUTES *attributes, UINTN *size)
{
	struct fv_instance *fv = instance_of(this);
	struct fv_file file;
	const char *why;
	UINTN offset;
	enum fv_walk walk;

	if (!fv || !key || !type || !name || !attributes || !size)
		return EFI_INVALID_PARAMETER;
	mem_copy(&offset, key, sizeof(offset));
	if (offset == 0)
		offset = fv->vol.files_start;
	if (offset < fv->vol.files_start || offset > fv->vol.size)
		return EFI_INVALID_PARAMETER;
	while ((walk = fv_next_file(&fv->vol, &offset, &file, &why)) != FV_WALK_END &&
	       walk != FV_WALK_BROKEN) {
		/* Damaged files and padding are not handed out. */
		if (walk != FV_WALK_FILE || file.type == EFI_FV_FILETYPE_FFS_PAD ||
		    (*type != EFI_FV_FILETYPE_ALL && *type != file.type))
			continue;
		mem_copy(key, &offset, sizeof(offset));
		*type = file.type;
		*name = file.name;
		*attributes = file_attributes(&file);
		*size = file.data_size;
		return EFI_SUCCESS;
	}
	mem_copy(key, &offset, sizeof(offset));
	return EFI_NOT_FOUND;
}

static EFI_STATUS EFIAPI fv_get_info(const EFI_FIRMWARE_VOLUME2_PROTOCOL *this,
				     const EFI_GUID *type, UINTN *size, VOID *buffer)
{
	return instance_of(this) ? EFI_UNSUPPORTED : EFI_INVALID_PARAMETER;
}

static EFI_STATUS EFIAPI fv_set_info(const EFI_FIRMWARE_VOLUME2_PROTOCOL *this,
				     const EFI_GUID *type, UINTN size, const VOID *buffer)
{
	return instance_of(this) ? EFI_WRITE_PROTECTED : EFI_INVALID_PARAMETER;
}

struct fv_instance *fv_instances[FV_MAX_VOLUMES];
UINTN fv_instance_count;

EFI_STATUS fv_publish(const void *base, UINTN size, EFI_HANDLE *handle)
{
	struct fv_instance *fv;
	const char *why;
	EFI_STATUS status;

	if (fv_instance_count == FV_MAX_VOLUMES)
		return EFI_OUT_OF_RESOURCES;
	fv = pool_alloc(sizeof(*fv));
	if (!fv)
		return EFI_OUT_OF_RESOURCES;
	why = fv_open(&fv->vol, base, size);
	if (why) {
		log_warn("the firmware volume at 0x%llx is refused: %s\n",
			 (unsigned long long)(uintptr_t)base, why);
		pool_free(fv);
		return EFI_VOLUME_CORRUPTED;
	}
	fv->signature = FV_INSTANCE_SIGNATURE;
	fv->proto = (EFI_FIRMWARE_VOLUME2_PROTOCOL){fv_get_volume_attributes,
						    fv_set_volume_attributes,
						    fv_read_file,
						    fv_read_section,
						    fv_write_file,
						    fv_get_next_file,
						    sizeof(UINTN),
						    NULL,
						    fv_get_info,
						    fv_set_info};
	/* Fv(name): an unnamed volume gets the zero GUID. */
	fv->path.fv.Header.Type = MEDIA_DEVICE_PATH;
	fv->path.fv.Header.SubType = MEDIA_PIWG_FW_VOL_DP;
	fv->path.fv.Header.Length[0] = sizeof(fv->path.fv);
	fv->path.fv.FvName = fv->vol.name;
	dp_set_end(&fv->path.end);
	status =
	    protocol_install_multiple(&fv->handle, &efi_firmware_volume2_protocol_guid, &fv->proto,
				      &efi_device_path_protocol_guid, &fv->path, NULL);
	if (EFI_ERROR(status)) {
		log_debug("installing the protocols: %r\n", status);
		pool_free(fv);
		return status;
	}
	fv_instances[fv_instance_count++] = fv;
	*handle = fv->handle;
	char text[37];
	guid_to_str(text, &fv->vol.name);
	log_debug("volume %s at 0x%llx, %llu bytes\n", text, (unsigned long long)(uintptr_t)base,
		  (unsigned long long)fv->vol.size);
	return EFI_SUCCESS;
}

struct fv_instance *fv_instance_on(EFI_HANDLE handle)
{
	for (UINTN i = 0; i < fv_instance_count; i++)
		if (fv_instances[i]->handle == handle)
			return fv_instances[i];
	return NULL;
}

bool fv_handle_is_platform(EFI_HANDLE handle)
{
	return handle && fv_instance_on(handle) != NULL;
}

EFI_STATUS fv_read_image(EFI_HANDLE handle, const EFI_GUID *name, void **image, UINTN *size)
{
	struct fv_instance *fv = fv_instance_on(handle);
	UINT32 auth;

	if (!fv)
		return EFI_NOT_FOUND;
	*image = NULL;
	return fv_read_section(&fv->proto, name, EFI_SECTION_PE32, 0, image, size, &auth);
}
