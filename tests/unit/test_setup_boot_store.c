/* The setup screen's boot page rules (apps/setup/pure/boot_store.c): moving rows and the
 * BootOrder a save writes. */
#include "support/test.h"
#include "../../apps/setup/pure/boot_store.h"

static struct boot_store three(void)
{
	struct boot_store s = {.count = 3, .number = {1, 2, 7}, .active = {1, 0, 1}};

	return s;
}

TEST(setup_boot_store_move)
{
	struct boot_store s = three();

	EXPECT(!boot_store_move(&s, 0, true));
	EXPECT(!boot_store_move(&s, 2, false));
	EXPECT(!boot_store_move(&s, 3, true));
	ASSERT(boot_store_move(&s, 1, true));
	EXPECT(s.number[0] == 2 && s.number[1] == 1 && s.active[0] == 0 && s.active[1] == 1);
	ASSERT(boot_store_move(&s, 1, false));
	EXPECT(s.number[1] == 7 && s.number[2] == 1 && s.active[2] == 1);
	s.count = BOOT_ROWS + 1; /* a store from the browser is not trusted */
	EXPECT(!boot_store_move(&s, 1, true));
}

TEST(setup_boot_store_order)
{
	struct boot_store s = three();
	static const UINT16 old[] = {7, 9, 1, 2, 4};
	UINT16 out[8];

	s.remove[1] = 1;
	boot_store_move(&s, 2, true); /* 1, 7, 2 (removed) */
	ASSERT_EQ(boot_store_order(&s, old, 5, out, 8), 4);
	EXPECT(out[0] == 1 && out[1] == 7 && out[2] == 9 && out[3] == 4);
	/* Bounded by the room, still counting. */
	EXPECT_EQ(boot_store_order(&s, old, 5, out, 1), 4);
	EXPECT_EQ(out[0], 1);
}
