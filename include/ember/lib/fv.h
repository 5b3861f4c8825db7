/* Firmware volumes (PI 1.8 volume 3): a bounded reader of the volume header, its FFS files
 * and their sections, and the writer's checksums (lib/fv.c, lib/fv_section.c,
 * lib/fv_build.c). Pure: it reads only inside the buffer it is given, and says in a short
 * phrase why it refuses a volume, a file or a section. */
#ifndef EMBER_LIB_FV_H
#define EMBER_LIB_FV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <efi/pi/firmware_volume.h>

/* A volume whose header was checked. */
struct fv_volume {
	const uint8_t *base;
	size_t size;	     /* FvLength */
	size_t files_start;  /* the first file's offset (after the header, 8-aligned) */
	uint32_t attributes; /* EFI_FVB2_* */
	uint8_t erased;	     /* the value of an erased byte: 0xFF or 0x00 */
	bool ffs3;	     /* large files allowed */
	bool named;	     /* an extended header gave the volume a name */
	EFI_GUID name;
};

/* A file of a volume: where its header and data lie (inside the volume). */
struct fv_file {
	size_t offset; /* of its header, from the volume's start */
	size_t size;   /* header and data */
	const uint8_t *data;
	size_t data_size;
	EFI_GUID name;
	uint8_t type, attributes;
};

enum fv_walk {
	FV_WALK_FILE,	 /* a valid file */
	FV_WALK_DAMAGED, /* a file whose data checksum or state is wrong: skip it, go on */
	FV_WALK_BROKEN,	 /* a header that cannot be trusted or a truncated file: stop */
	FV_WALK_END,	 /* free space or the volume's end */
};

/* Checks the volume header at data[0..size) (signature, revision, lengths, the block map,
 * the checksum, the file system GUID, the extended header) and fills vol. NULL when good,
 * else why it is refused. */
const char *fv_open(struct fv_volume *vol, const void *data, size_t size);

/* The next file at or after *offset (start with vol->files_start), skipping deleted files
 * and those under construction; *offset moves past what was read. For FV_WALK_DAMAGED and
 * FV_WALK_BROKEN, *why says what is wrong (file->name is set for a damaged file). */
enum fv_walk fv_next_file(const struct fv_volume *vol, size_t *offset, struct fv_file *file,
			  const char **why);

/* The state of a file header byte as if the erase polarity were 0. */
uint8_t fv_file_state(const struct fv_volume *vol, uint8_t state);

/* 8-bit and 16-bit sums (the volume's and the files' checksums make them 0). */
uint8_t fv_sum8(const void *data, size_t size);
uint16_t fv_sum16(const void *data, size_t size);

/* ---- Sections (lib/fv_section.c) ---- */

struct fv_section {
	uint8_t type;
	const uint8_t *data; /* after the section's headers */
	size_t data_size;
	const uint8_t *start; /* the section's common header */
	size_t size;	      /* headers and data */
};

/* The next section of buf[0..size) at *offset (4-aligned from buf). 1 and *offset moved
 * on, 0 at the end, -1 with *why when the section is malformed. */
int fv_next_section(const uint8_t *buf, size_t size, size_t *offset, struct fv_section *s,
		    const char **why);

/* Memory for the sections that must be decoded (compression). */
struct fv_memory {
	void *(*alloc)(void *ctx, size_t size);
	void (*release)(void *ctx, void *block);
	void *ctx;
};

/* A section found by fv_find_section: data points into the file or into *owned, a block of
 * fv_memory to release when done (NULL when none). */
struct fv_found {
	struct fv_section section;
	void *owned;
};

/* Finds the instance-th (from 0) section of type in the sections buf[0..size), looking
 * inside compression sections (UEFI compression, or none) and GUID-defined ones (the
 * CRC-32 one is checked; others only when they need no processing). NULL when found, else
 * why not ("not found" when there is none). */
const char *fv_find_section(const uint8_t *buf, size_t size, uint8_t type, size_t instance,
			    const struct fv_memory *mem, struct fv_found *found);

/* ---- Writing (lib/fv_build.c) ---- */

/* Fills in the volume header's checksum (header->HeaderLength bytes). */
void fv_seal_header(void *header);
/* Fills in a file's checksums (FFS_ATTRIB_CHECKSUM: of its data; else the fixed value) and
 * its state (data valid), given the erased byte value of its volume. file_size is the
 * header and data. */
void fv_seal_file(void *file, size_t file_size, uint8_t erased);
/* Writes a 24-bit size field. */
void fv_put_size3(uint8_t size[3], uint32_t value);

/* ---- Dependency expressions (lib/depex.c) ---- */

enum depex_kind {
	DEPEX_NORMAL, /* an expression over the protocol database */
	DEPEX_BEFORE, /* run right before the file named by target */
	DEPEX_AFTER,  /* run right after it */
	DEPEX_SOR,    /* wait for a Schedule() call, then the expression */
};

/* Checks the shape of a DXE dependency expression expr[0..size): known opcodes, GUIDs
 * whole, BEFORE/AFTER alone, SOR first, END last, a stack that ends with one value and
 * never goes deeper than the evaluator's. NULL when good (*kind and *target say what it
 * is), else why. */
const char *depex_check(const uint8_t *expr, size_t size, enum depex_kind *kind, EFI_GUID *target);

/* Evaluates a checked expression: installed(ctx, guid) says whether a protocol is in the
 * database. BEFORE/AFTER evaluate as true. */
bool depex_eval(const uint8_t *expr, size_t size, bool (*installed)(void *ctx, const EFI_GUID *),
		void *ctx);

#endif
