"""Where each GURPS rule the workbook applies is written (GURPS Basic Set, 4th edition, "B" pages)."""

from __future__ import annotations

from ...registry import Source

SEED = "GURPS Basic Set 4e p. B377 (Dodge and Drop)"

SUCCESS = "GURPS Basic Set 4e pp. B343-344 (Success Rolls: 3-4 always succeed, 17-18 always fail)"
CRITICAL = "GURPS Basic Set 4e p. B348 (Critical Success and Failure)"
MIN_SKILL = "GURPS Basic Set 4e p. B344 (no roll below effective skill 3, except defense rolls)"
DODGE = "GURPS Basic Set 4e p. B17 (Dodge = Basic Speed + 3, dropping fractions)"
ENCUMBRANCE = "GURPS Basic Set 4e p. B17 (Encumbrance: -1 Dodge per level)"
LOW_HP_FP = "GURPS Basic Set 4e p. B419 (less than 1/3 HP: halve Dodge), p. B426 (less than 1/3 FP)"
RETREAT = "GURPS Basic Set 4e p. B377 (Retreating: +3 to Dodge)"
DROP = SEED
ACROBATIC = "GURPS Basic Set 4e p. B375 (Acrobatic Dodge: +2 on success, -2 on failure)"
POSTURE = "GURPS Basic Set 4e p. B551 (Posture table: defense and ranged-target modifiers)"
SHIELD = "GURPS Basic Set 4e p. B374 (shield Defense Bonus adds to Dodge)"
RAPID_FIRE = "GURPS Basic Set 4e p. B373 (Rapid Fire: bonus by RoF; one hit plus one per full Recoil of margin)"
RAPID_DODGE = "GURPS Basic Set 4e pp. B374-375 (Dodging rapid fire: one hit plus one per point of margin)"
CRIT_HIT = "GURPS Basic Set 4e p. B381 (Critical Hits: no active defense)"
DAMAGE = "GURPS Basic Set 4e p. B378 (Damage Roll; minimum damage; Damage and DR)"
DIVISOR = "GURPS Basic Set 4e p. B378 (Armor Divisors)"
WOUNDING = "GURPS Basic Set 4e p. B379 (Wounding Modifiers and Injury)"
BLUNT = "GURPS Basic Set 4e p. B379 (Flexible Armor and Blunt Trauma)"
LOCATION = "GURPS Basic Set 4e pp. B398-400 (Hit Location: vitals, arms and legs)"
MAJOR = "GURPS Basic Set 4e p. B420 (Major Wounds: more than 1/2 HP from one blow)"
DOWN = "GURPS Basic Set 4e p. B419 (0 HP or less: roll HT each turn to stay conscious)"
FATIGUE = "GURPS Basic Set 4e p. B426 (fatigue damage comes off FP)"
COVER = "GURPS Basic Set 4e p. B377 (cover dropped behind protects against later attacks), p. B407 (Cover)"
SACRIFICIAL = "GURPS Basic Set 4e p. B375 (Sacrificial Dodge), p. B377 (Sacrificial Dodge and Drop)"
EXPLOSION = "GURPS Basic Set 4e p. B414 (Explosions: damage / (3 x yards), out to 2 yards per die)"
CONTACT = "GURPS Basic Set 4e p. B415 (contact explosions)"
LARGE_AREA = "GURPS Basic Set 4e p. B400 (Large-Area Injury: DR against a blast)"
DIVE = "GURPS Basic Set 4e p. B377 (Diving for Cover)"
FLYING = "GURPS Basic Set 4e p. B377 (Dodge and Drop: Flying or Swimming)"
RULINGS = "docs/rulings/gurps-4e.md"

SOURCES = (
    Source("GURPS Basic Set: Campaigns, 4th edition",
           "p. B377 Dodge and Drop (sacrificial, diving for cover, flying or swimming); "
           "pp. B378-379 damage, DR, armor divisors, wounding, blunt trauma"),
    Source("GURPS Basic Set: Campaigns, 4th edition",
           "pp. B343-348 success rolls and criticals; B17 Dodge and encumbrance; B373-375 rapid fire, "
           "dodging, acrobatic and sacrificial dodge; B381 critical hits; B398-400 hit location; "
           "B414-415 explosions; B419-420 injury and major wounds; B551 posture"),
)
