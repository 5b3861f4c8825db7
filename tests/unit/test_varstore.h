/* Shared by the variable store's unit tests: a simulated NOR flash that counts its steps,
 * refuses (and counts) attempts to turn 0 bits into 1, and can be torn at any step; and
 * a variable service mounted on any flash. */
#ifndef TEST_VARSTORE_H
#define TEST_VARSTORE_H

#include <ember/core/varstore.h>

enum nor_op { NOR_PROGRAM, NOR_ERASE };

struct nor_sim;
/* Called before each program or erase step is applied. */
typedef void (*nor_hook)(struct nor_sim *sim, enum nor_op op, UINT32 offset, const void *data,
			 UINT32 size, void *ctx);

struct nor_sim {
	struct flash_device dev;
	UINT8 *bytes;
	UINT64 steps;	   /* program and erase operations so far */
	UINT64 violations; /* programs that asked for a 0 bit to become 1 */
	bool fail_writes;  /* every program and erase fails with EFI_DEVICE_ERROR */
	nor_hook hook;
	void *hook_ctx;
};

/* An erased simulated flash (malloc'd). */
void nor_init(struct nor_sim *sim, UINT32 size, UINT32 block_size);
void nor_free(struct nor_sim *sim);
/* dst becomes an independent copy of src's bytes (same geometry, no hook). */
void nor_copy(struct nor_sim *dst, const struct nor_sim *src);
/* Applies part of a step, as a power cut in the middle of it leaves the flash: a prefix
 * of the bytes done, the next one half done (some of its bits), the rest untouched.
 * variant picks where and how. */
void nor_tear(struct nor_sim *sim, enum nor_op op, UINT32 offset, const void *data, UINT32 size,
	      UINT32 variant);

/* A flash over a simulated one that counts the bytes read and fails reads that reach
 * fail_from (0: none). */
struct probe_flash {
	struct flash_device dev;
	struct nor_sim *inner;
	UINT64 read_bytes;
	UINT32 fail_from;
};
struct probe_flash probe_of(struct nor_sim *f);

/* A variable service with its own memory. */
struct test_vars {
	struct var_service svc;
	void *mem;
	UINTN size;
};
EFI_STATUS test_vars_mount(struct test_vars *t, struct flash_device *flash, UINT32 flags);
void test_vars_unmount(struct test_vars *t);

/* A store alone, with its own memory. */
struct test_store {
	struct vstore s;
	void *mem;
};
EFI_STATUS test_store_mount(struct test_store *t, struct flash_device *flash, UINT32 flags);
void test_store_unmount(struct test_store *t);

/* The data of variable name of guid as a string (in a static buffer): "" when the store
 * has no such variable, "<error>" when it cannot be read. */
const char *test_store_read_str(struct vstore *s, const CHAR16 *name, const EFI_GUID *guid);

/* A test GUID, distinct for each n. */
EFI_GUID test_var_guid(UINT32 n);

#endif
