package names

import (
	"strings"

	"github.com/mtibben/confusables"
)

// Skeleton is the form under which two names that look alike are one name (UTS #39,
// "Confusable Detection"): the confusable skeleton of the enforced name, lower-cased, and
// its skeleton again. So "Bob", "Вob" (Cyrillic В) and "Βob" (Greek Β) share a skeleton, and
// so do "BOB" and "ВОВ"; lower-casing between the two passes joins what the profile's
// comparison joins ("Bob" and "bob") once the look-alikes are mapped, and the second pass
// maps what lower-casing produced. A store keeps it beside the name under a unique index, as
// it keeps Key: a name is taken when either is. A name Enforce refuses is refused here too.
//
// A skeleton is for comparing only: it is no name to show (it mixes scripts, and maps "m"
// to "rn").
func Skeleton(name string) (string, error) {
	kept, err := Enforce(name)
	if err != nil {
		return "", err
	}
	return skeleton(kept), nil
}

// skeleton is Skeleton of a name already enforced.
func skeleton(kept string) string {
	return confusables.Skeleton(strings.ToLower(confusables.Skeleton(kept)))
}

// Alike reports whether two names are one name to a reader: the same under the profile's
// comparison (Same) or confusable (the same Skeleton). Two seats of one match may not be alike.
// A name that cannot be enforced is alike nothing.
func Alike(a, b string) bool {
	if Same(a, b) {
		return true
	}
	ka, errA := Skeleton(a)
	kb, errB := Skeleton(b)
	return errA == nil && errB == nil && ka == kb
}

// BotPrefix begins the name of every bot's player (bot-random, bot-greedy, bot-pimc,
// bot-expert, and any bot to come).
const BotPrefix = "bot-"

// Reserved reports whether name is kept for the bots: it begins with "bot-", or with
// anything that looks like it ("Bot-", "bоt-" with a Cyrillic о), so no player can pass for a
// bot that exists or one added later. The bots' own rows are seeded by the migrations.
func Reserved(name string) bool {
	k, err := Skeleton(name)
	return err == nil && strings.HasPrefix(k, botSkeleton)
}

// botSkeleton is the skeleton of BotPrefix.
var botSkeleton = skeleton(BotPrefix)
