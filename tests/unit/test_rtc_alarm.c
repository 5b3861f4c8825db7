/* The CMOS RTC alarm registers (platform/qemu-x86_64/pure/rtc_alarm.c): BCD and binary,
 * 24- and 12-hour encodings as register B selects, values the decoder refuses, and the
 * 24-hour reach of an alarm without date registers. */
#include <stdio.h>

#include "support/test.h"
#include "../../platform/qemu-x86_64/pure/rtc_alarm.h"

#define BCD_24H RTC_REG_B_24H
#define BIN_24H (RTC_REG_B_24H | RTC_REG_B_BINARY)
#define BCD_12H 0
#define BIN_12H RTC_REG_B_BINARY

static EFI_TIME at(UINT8 hour, UINT8 minute, UINT8 second)
{
	return (EFI_TIME){
	    .Year = 2026, .Month = 12, .Day = 31, .Hour = hour, .Minute = minute, .Second = second};
}

static void expect_regs(EFI_TIME t, UINT8 reg_b, UINT8 hour, UINT8 minute, UINT8 second)
{
	struct rtc_alarm_regs r;
	EFI_TIME back = {0};

	rtc_alarm_encode(&t, reg_b, &r);
	EXPECT_EQ(r.hour, hour);
	EXPECT_EQ(r.minute, minute);
	EXPECT_EQ(r.second, second);
	/* And the registers read back as the same time of day. */
	ASSERT(rtc_alarm_decode(&r, reg_b, &back));
	EXPECT_EQ(back.Hour, t.Hour);
	EXPECT_EQ(back.Minute, t.Minute);
	EXPECT_EQ(back.Second, t.Second);
}

TEST(rtc_alarm_encodes_as_register_b_says)
{
	expect_regs(at(23, 59, 58), BCD_24H, 0x23, 0x59, 0x58);
	expect_regs(at(23, 59, 58), BIN_24H, 23, 59, 58);
	expect_regs(at(0, 0, 0), BCD_24H, 0x00, 0x00, 0x00);
	/* 12-hour mode: midnight is 12 AM, noon 12 PM, bit 7 marks PM. */
	expect_regs(at(0, 5, 9), BCD_12H, 0x12, 0x05, 0x09);
	expect_regs(at(12, 30, 0), BCD_12H, 0x92, 0x30, 0x00);
	expect_regs(at(23, 1, 2), BCD_12H, 0x91, 0x01, 0x02);
	expect_regs(at(11, 59, 59), BCD_12H, 0x11, 0x59, 0x59);
	expect_regs(at(0, 0, 0), BIN_12H, 12, 0, 0);
	expect_regs(at(13, 45, 30), BIN_12H, 0x81, 45, 30);
}

TEST(rtc_alarm_decode_refuses_bad_registers)
{
	EFI_TIME t = at(1, 2, 3);
	struct {
		struct rtc_alarm_regs r;
		UINT8 reg_b;
		const char *what;
	} bad[] = {
	    {{0xc0, 0x00, 0x00}, BCD_24H, "don't-care second"},
	    {{0x00, 0xff, 0x00}, BCD_24H, "don't-care minute"},
	    {{0x00, 0x00, 0xc0}, BCD_24H, "don't-care hour"},
	    {{0x0a, 0x00, 0x00}, BCD_24H, "a BCD digit above 9"},
	    {{0x60, 0x00, 0x00}, BCD_24H, "second 60"},
	    {{0x00, 0x00, 0x24}, BCD_24H, "hour 24"},
	    {{0x00, 0x00, 24}, BIN_24H, "binary hour 24"},
	    {{60, 0, 0}, BIN_24H, "binary second 60"},
	    {{0x00, 0x00, 0x00}, BCD_12H, "12-hour hour 0"},
	    {{0x00, 0x00, 0x13}, BCD_12H, "12-hour hour 13"},
	    {{0x00, 0x00, 0x80}, BIN_12H, "12-hour PM hour 0"},
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!EXPECT(!rtc_alarm_decode(&bad[i].r, bad[i].reg_b, &t)))
			printf("    (%s)\n", bad[i].what);
	/* A refused decode leaves the time alone. */
	EXPECT_EQ(t.Hour, 1);
	EXPECT_EQ(t.Minute, 2);
	EXPECT_EQ(t.Second, 3);
}

TEST(rtc_alarm_reaches_one_day_ahead)
{
	EFI_TIME now = at(23, 0, 0), alarm = now;

	EXPECT(!rtc_alarm_reachable(&now, &alarm)); /* now: already past */
	alarm.Second = 1;
	EXPECT(rtc_alarm_reachable(&now, &alarm));
	alarm = (EFI_TIME){.Year = 2027, .Month = 1, .Day = 1, .Hour = 23}; /* over the year */
	EXPECT(rtc_alarm_reachable(&now, &alarm));
	alarm.Second = 1;
	EXPECT(!rtc_alarm_reachable(&now, &alarm)); /* 24 h and 1 s: the RTC would ring early */
	alarm = at(22, 59, 59);
	EXPECT(!rtc_alarm_reachable(&now, &alarm)); /* in the past */
}
