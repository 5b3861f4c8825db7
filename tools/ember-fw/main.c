/* ember-fw: lists, adds and removes the files of the firmware volume in Ember's QEMU images
 * (ember-code.fd, ember.fd: the volume at FW_VOLUME_OFFSET of the code region, the image's
 * last FW_CODE_SIZE bytes) or in a bare volume file, in place, without rebuilding.
 *
 *     ember-fw IMAGE list
 *     ember-fw IMAGE add FILE.efi [--compress] [--name N] [--guid GUID]
 *     ember-fw IMAGE remove NAME|GUID
 *     ember-fw VOLUME create SIZE        a bare empty volume (SIZE a multiple of 4 KiB)
 *
 * An EFI application becomes an APPLICATION file, anything else a DRIVER file; each file
 * is written with its data checksum (FFS_ATTRIB_CHECKSUM). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ember/lib/fv.h>
#include <ember/lib/str.h>
#include <ember/tools/fv_image.h>
#include <ember/tools/host_file.h>
#include "../../platform/qemu-x86_64/reset/layout.h"

#define PE_SUBSYSTEM_APPLICATION 10

struct image {
	const char *path;
	uint8_t *data;
	size_t size;
	uint8_t *vol; /* the volume inside data */
	size_t vol_size;
};

static int write_file(const char *path, const uint8_t *data, size_t size)
{
	if (host_file_write(path, data, size) == 0)
		return 0;
	fprintf(stderr, "ember-fw: cannot write %s\n", path);
	return 1;
}

/* A bare volume fills its file; in a firmware image the volume has its fixed place. */
static int open_image(struct image *img, const char *path)
{
	uint64_t length = 0;

	img->path = path;
	img->data = host_file_read(path, &img->size);
	if (!img->data) {
		fprintf(stderr, "ember-fw: cannot read %s\n", path);
		return 1;
	}
	if (img->size >= 64)
		memcpy(&length, img->data + 32, sizeof(length));
	if (img->size >= 64 && !memcmp(img->data + 40, "_FVH", 4) && length == img->size) {
		img->vol = img->data;
		img->vol_size = img->size;
		return 0;
	}
	if (img->size < FW_CODE_SIZE) {
		fprintf(stderr, "ember-fw: %s is no Ember firmware image nor a volume\n", path);
		return 1;
	}
	img->vol = img->data + img->size - FW_CODE_SIZE + FW_VOLUME_OFFSET;
	img->vol_size = FW_VOLUME_SIZE;
	return 0;
}

static const char *type_name(uint8_t type)
{
	switch (type) {
	case EFI_FV_FILETYPE_DRIVER:
		return "DRIVER";
	case EFI_FV_FILETYPE_APPLICATION:
		return "APPLICATION";
	case EFI_FV_FILETYPE_FREEFORM:
		return "FREEFORM";
	case EFI_FV_FILETYPE_RAW:
		return "RAW";
	default:
		return "OTHER";
	}
}

/* Opens the image's volume into fv; false (with the reason on stderr) when it is refused. */
static bool open_volume(struct image *img, struct fv_volume *fv)
{
	const char *why = fv_open(fv, img->vol, img->vol_size);

	if (why)
		fprintf(stderr, "ember-fw: %s: the volume is refused: %s\n", img->path, why);
	return !why;
}

static int list(struct image *img)
{
	struct fv_volume fv;
	struct fv_file f;
	const char *why;
	size_t offset;
	enum fv_walk walk;
	char guid[37], ui[64];

	if (!open_volume(img, &fv))
		return 1;
	guid_to_str(guid, &fv.name);
	printf("volume %s, %zu bytes%s\n", fv.named ? guid : "(unnamed)", fv.size,
	       fv.ffs3 ? ", FFS3" : "");
	offset = fv.files_start;
	while ((walk = fv_next_file(&fv, &offset, &f, &why)) != FV_WALK_END) {
		if (walk == FV_WALK_BROKEN) {
			printf("  the volume is damaged after this: %s\n", why);
			return 1;
		}
		if (f.type == EFI_FV_FILETYPE_FFS_PAD)
			continue;
		guid_to_str(guid, &f.name);
		if (!fv_image_file_ui(f.data, f.data_size, ui, sizeof(ui)))
			strcpy(ui, "-");
		printf("  %s %-11s %8zu  %s%s%s\n", guid, type_name(f.type), f.size, ui,
		       walk == FV_WALK_DAMAGED ? "  DAMAGED: " : "",
		       walk == FV_WALK_DAMAGED ? why : "");
	}
	return 0;
}

static uint8_t pe_subsystem(const uint8_t *pe, size_t size)
{
	uint32_t lfanew;

	if (size < 0x40 || pe[0] != 'M' || pe[1] != 'Z')
		return 0;
	memcpy(&lfanew, pe + 0x3c, 4);
	if (lfanew > size - 24 - 70 || memcmp(pe + lfanew, "PE\0\0", 4))
		return 0;
	return pe[lfanew + 24 + 68];
}

static void random_guid(EFI_GUID *guid)
{
	FILE *f = fopen("/dev/urandom", "rb");

	if (!f || fread(guid, sizeof(*guid), 1, f) != 1) {
		fprintf(stderr, "ember-fw: no random GUID\n");
		exit(1);
	}
	fclose(f);
	guid->Data3 = (uint16_t)((guid->Data3 & 0x0FFF) | 0x4000); /* version 4 */
	guid->Data4[0] = (uint8_t)((guid->Data4[0] & 0x3F) | 0x80);
}

/* The name a file gets by default: the .efi file's base name. */
static void default_name(char *out, size_t size, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	snprintf(out, size, "%.*s", (int)n, base);
}

static int add(struct image *img, int argc, char **argv)
{
	struct fv_image_file spec = {0};
	char name[64];
	const char *why;
	uint8_t *pe, *file;
	size_t pe_size, file_size;
	struct fv_volume fv;
	int status;

	default_name(name, sizeof(name), argv[0]);
	random_guid(&spec.name);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--compress")) {
			spec.compress = true;
		} else if (!strcmp(argv[i], "--name") && i + 1 < argc) {
			snprintf(name, sizeof(name), "%s", argv[++i]);
		} else if (!strcmp(argv[i], "--guid") && i + 1 < argc) {
			if (!guid_from_str(&spec.name, argv[i + 1], strlen(argv[i + 1]))) {
				fprintf(stderr, "ember-fw: bad GUID %s\n", argv[i + 1]);
				return 2;
			}
			i++;
		} else {
			fprintf(stderr, "ember-fw: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	pe = host_file_read(argv[0], &pe_size);
	if (!pe) {
		fprintf(stderr, "ember-fw: cannot read %s\n", argv[0]);
		return 1;
	}
	if (!pe_subsystem(pe, pe_size)) {
		fprintf(stderr, "ember-fw: %s is no PE image\n", argv[0]);
		free(pe);
		return 1;
	}
	why = fv_open(&fv, img->vol, img->vol_size);
	if (why) {
		fprintf(stderr, "ember-fw: %s: the volume is refused: %s\n", img->path, why);
		free(pe);
		return 1;
	}
	spec.type = pe_subsystem(pe, pe_size) == PE_SUBSYSTEM_APPLICATION
			? EFI_FV_FILETYPE_APPLICATION
			: EFI_FV_FILETYPE_DRIVER;
	spec.pe = pe;
	spec.pe_size = pe_size;
	spec.ui = name;
	file = fv_image_make_file(&spec, fv.erased, &file_size);
	why = file ? fv_image_append(img->vol, img->vol_size, file, file_size) : "out of memory";
	if (why) {
		fprintf(stderr, "ember-fw: %s: cannot add %s: %s\n", img->path, argv[0], why);
		status = 1;
	} else {
		char guid[37];
		guid_to_str(guid, &spec.name);
		printf("added %s %s %s (%zu bytes)\n", guid, type_name(spec.type), name, file_size);
		status = write_file(img->path, img->data, img->size);
	}
	free(file);
	free(pe);
	return status;
}

static int remove_file(struct image *img, const char *which)
{
	struct fv_volume fv;
	struct fv_file f;
	const char *why;
	size_t offset;
	enum fv_walk walk;
	char guid[37], ui[64];

	if (!open_volume(img, &fv))
		return 1;
	offset = fv.files_start;
	while ((walk = fv_next_file(&fv, &offset, &f, &why)) != FV_WALK_END &&
	       walk != FV_WALK_BROKEN) {
		guid_to_str(guid, &f.name);
		if (f.type == EFI_FV_FILETYPE_FFS_PAD ||
		    (strcasecmp(guid, which) &&
		     (!fv_image_file_ui(f.data, f.data_size, ui, sizeof(ui)) || strcmp(ui, which))))
			continue;
		why = fv_image_remove(img->vol, img->vol_size, f.offset, f.size);
		if (why) {
			fprintf(stderr, "ember-fw: cannot remove %s: %s\n", which, why);
			return 1;
		}
		printf("removed %s\n", guid);
		return write_file(img->path, img->data, img->size);
	}
	fprintf(stderr, "ember-fw: %s: no file %s%s%s\n", img->path, which,
		walk == FV_WALK_BROKEN ? " before the damage: " : "",
		walk == FV_WALK_BROKEN ? why : "");
	return 1;
}

static int create(const char *path, const char *size_text)
{
	static const EFI_GUID name = EFI_GUID_INIT(0x6d3b1e2a, 0x9c4f, 0x4b8e, 0x8a, 0x51, 0x3e,
						   0x7f, 0x2c, 0x90, 0x1d, 0x44);
	size_t size = strtoul(size_text, NULL, 0);
	uint8_t *buf;
	int status;

	if (size < FV_IMAGE_BLOCK_SIZE || size % FV_IMAGE_BLOCK_SIZE) {
		fprintf(stderr, "ember-fw: the size must be a multiple of 4096\n");
		return 2;
	}
	buf = malloc(size);
	if (!buf)
		return 1;
	fv_image_format(buf, size, &name);
	status = write_file(path, buf, size);
	free(buf);
	return status;
}

static int usage(void)
{
	fprintf(stderr, "usage: ember-fw IMAGE list\n"
			"       ember-fw IMAGE add FILE.efi [--compress] [--name N] [--guid GUID]\n"
			"       ember-fw IMAGE remove NAME|GUID\n"
			"       ember-fw VOLUME create SIZE\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct image img = {0};
	int status;

	if (argc < 3)
		return usage();
	if (!strcmp(argv[2], "create"))
		return argc == 4 ? create(argv[1], argv[3]) : usage();
	if (open_image(&img, argv[1]))
		return 1;
	if (!strcmp(argv[2], "list") && argc == 3)
		status = list(&img);
	else if (!strcmp(argv[2], "add") && argc >= 4)
		status = add(&img, argc - 3, argv + 3);
	else if (!strcmp(argv[2], "remove") && argc == 4)
		status = remove_file(&img, argv[3]);
	else
		status = usage();
	free(img.data);
	return status;
}
