"""A small built-in background of general English: words too common to be a book's key terms.

Key terms are scored by TF-IDF over the book's pages; a word in this list is general English
whatever its count, so it never becomes a term.
"""

from __future__ import annotations

_WORDS = """
a about above across act actually add after afternoon again against age ago agree ahead air all allow
almost alone along already also although always am among an and anger angry animal another answer
answered any anybody anyone anything anyway anywhere appear appeared arm arms around arrived as ask
asked asking at attention away back bad bag bank be beautiful became because become bed been before
began begin beginning behind being believe believed below beside best better between beyond big bit
black blood blue body book books both bottom box boy boys break breath bright bring broke broken brother
brought brown build building built burn business busy but buy by call called came can cannot car care
careful carried carry case cat caught cause certain certainly chair chance change child children church
city clean clear clearly close closed clothes cold colour come comes coming complete could couldn count
country couple course cover cried cry cup cut dark daughter day days dead dear death decided deep did
didn die died different dinner do does doesn dog doing done don door doors down dream dress drink drive
drop dropped dry during each ear early earth easy eat edge eight either else empty end enough enter
even evening ever every everyone everything except eye eyes face fact fall family far fast father fear
feel feeling feet fell felt few field fight figure fill finally find fine finger fingers finished fire
first five floor follow followed food foot for force forget form forward found four free friend friends
from front full funny further game garden gave get gets getting girl girls give given glad go god goes
going gone good got great green grew ground group grow guess had hair half hall hand hands hang happen
happened happy hard has hat have haven having he head heard hear heart heavy held hell hello help her
here herself hey hi high hill him himself his hit hold hole home hope horse hot hour hours house how
however huge human hundred hung hurt husband i idea if ill important in indeed inside instead interest
into is it its itself job join just keep kept kid kill killed kind king knew knock know known lady land
language large last late later laugh laughed lay lead learn least leave led left leg legs less let
letter lie life lift light like liked line lips list listen little live lived living long look looked
looking lose lost lot loud love low lying made make making man many married matter may maybe me mean
meant meet men met middle might mind mine minute minutes miss moment money month moon more morning most
mother mouth move moved much music must my myself name near nearly neck need needed never new news next
nice night nine no nobody nodded noise none nor normal north nose not note nothing notice now number of
off office often oh old on once one only onto open opened or order other others our out outside over
own paper parents part party pass passed past pay people perhaps person pick picked picture piece place
plan play please pocket point police poor possible power pretty probably problem pull pulled push put
question quick quickly quiet quite rain ran rather reach reached read ready real really reason red
remember reply rest return returned right river road rock room round run running sad safe said same sat
saw say saying says school sea seat second see seem seemed seen send sense sent set seven several shall
shape she ship shirt shook short should shoulder shoulders shout shouted show showed shut sick side sight
sign silence silent simple since sir sister sit sitting six size sky sleep slightly slow slowly small
smell smile smiled snow so soft some somebody someone something sometimes somewhere son soon sorry sort
sound south space speak special spoke spot stand standing star stared start started stay step stepped
still stood stop stopped story straight strange street strong such suddenly summer sun suppose sure
surprise table take taken taking talk talked talking tall tea tell telling ten than thank thanks that
the their them themselves then there these they thin thing things think thinking third this those though
thought thousand three threw through throw time times tiny tired to today together told tomorrow tone
too took top touch toward towards town tree trees tried trouble true truth try trying turn turned two
under understand until up upon us use used usual very voice wait waited waiting walk walked walking wall
want wanted war warm was watch watched watching water way we wear week well went were west wet what
whatever when where whether which while whispered white who whole whom whose why wide wife wild will
win wind window wish with within without woke woman women wonder wondered wood word words work worked
world worry would write writing written wrong yard year years yellow yes yet you young your yourself
across afraid almost answer anybody beneath bent besides blind cheek cheeks chin climbed crowd dozen
east empty entered everybody eleven fifty forty fresh glance glanced gently gone grave grey gray hadn
isn wasn weren wouldn shouldn couldn won ain hands hers ours theirs yours it's i'm i'll i've i'd you'll
you're you've he's she's that's there's what's don't didn't can't won't couldn't wouldn't isn't wasn't
aren't haven't hasn't hadn't let's o'clock lady's man's men's women's mother's father's
beginning behind bottom colour corner quarter twice whilst amongst nine twenty thirty hundred minute
moment morning evening afternoon tonight yesterday sunday monday tuesday wednesday thursday friday
saturday uncle aunt nephew niece cousin grandfather grandmother page pages iron stone stones
inch inches foot mile miles pound pounds shilling shillings penny yard yards minute hour week weeks
january february march april june july august september october november december
till to-night to-day to-morrow grown
""".split()

BACKGROUND: frozenset[str] = frozenset(_WORDS)
"""General English words, lower-cased."""
