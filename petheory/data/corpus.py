"""The built-in corpus: 305 short English film reviews, one per line.

Written for petheory and released with it (CC0, no third-party text), in the register of the
SST-2 and IMDB reviews that cirrincione2026 uses, so that ``petheory stress`` has a real-text
target that works offline from a fresh clone. It is small (about 4,300 words): positional
distributions over its full vocabulary are dominated by sampling noise, so the built-in target
keeps the most frequent word types and pools the rest (see
:func:`petheory.geometry.builtin_target`). It is *not* SST-2 or IMDB; a verdict on it is not a
verdict on the paper's corpora. Point ``--corpus`` (or ``PETHEORY_CORPUS`` for the claims) at a
text file of your own to check those.

``PETHEORY_CORPUS``
    a UTF-8 text file, one sequence per line, that the claims and figures reading a corpus
    (``cirrincione2026.*``, the geometry figures) use instead of the built-in one. Checked once
    when ``petheory`` starts (:func:`env_corpus`): a value that names no regular file is one
    error line naming the variable, never a crashed checker. Unset or empty: the built-in corpus.
"""

from __future__ import annotations

import os
from pathlib import Path

#: The environment variable that points the claims and figures at a corpus of your own.
ENV_CORPUS = "PETHEORY_CORPUS"


def env_corpus() -> Path | None:
    """The corpus file ``$PETHEORY_CORPUS`` names, checked (a regular file); None when unset or empty.

    Returns
    -------
    pathlib.Path or None
        The file, or None when the variable is unset or empty.

    Raises
    ------
    ValidationError
        The variable names nothing, a directory, a FIFO or a link loop; the message names the variable.

    Examples
    --------
    >>> import os; os.environ.pop(ENV_CORPUS, None) and None; env_corpus() is None
    True
    """
    value = os.environ.get(ENV_CORPUS, "").strip()
    if not value:
        return None
    from petheory.errors import ValidationError
    from petheory.loaders.paths import regular_file

    path = Path(value).expanduser()
    try:
        return regular_file(path, what="corpus file")
    except (ValueError, OSError) as exc:
        raise ValidationError(f"environment variable {ENV_CORPUS}={value}: {exc}; it names the text corpus (one sequence "
                              "per line) the claims and figures read instead of the built-in one: point it at a file "
                              "or unset it") from None

_TEXT = """\
The film opens with a long quiet shot of the harbour and never quite finds its rhythm after that.
It is a warm and funny story about a family that refuses to grow up, and I loved every minute of it.
The script is clever but the actors seem to be reading their lines for the first time.
A beautiful, patient film that trusts its audience and rewards them with an ending that feels earned.
I wanted to like this movie more than I did, but the second half drags badly.
The director has a real eye for landscapes and almost no interest in the people who live in them.
This is the kind of comedy that makes you laugh out loud and then think about it on the way home.
The plot is thin, the jokes are stale, and the music is far too loud.
Her performance is the best thing in the film and the only reason to see it.
It is hard to remember a thriller this tense that also has so much to say about trust.
The dialogue is sharp, the pacing is brisk, and the cast clearly had a good time making it.
Nothing in this movie surprised me, and I do not think it was trying to.
The story of two brothers who inherit a failing farm is told with tenderness and humour.
By the end I had stopped caring whether the hero would find the money or lose it.
An ambitious, messy, often brilliant film that is better than its clumsy title suggests.
The animation is gorgeous but the story feels like it was written by a committee.
I laughed, I cried, and I went back to see it again with my father the next week.
It is a slow film, and some viewers will find it boring, but I found it hypnotic.
The villain is more interesting than the hero, which is a problem the film never solves.
This remake adds nothing to the original except a louder soundtrack and a longer running time.
The performances are uniformly excellent, especially the young actress who plays the daughter.
A tired sequel that repeats the jokes of the first film without any of its charm.
The last twenty minutes are among the most moving I have seen in a cinema this year.
It looks expensive, it sounds expensive, and it feels completely empty.
The film is at its best when it lets the two leads simply talk to each other.
I have rarely been so bored by a movie that had so many explosions in it.
There is a wonderful scene in a train station that almost justifies the price of the ticket.
The writing is lazy and the characters make decisions that no real person would make.
What starts as a romantic comedy slowly turns into something stranger and much more interesting.
The cinematography is stunning, with every frame composed like a painting.
Even the talented cast cannot save a script this confused about what it wants to be.
It is a small film with a big heart, and it deserves a much wider audience.
The first hour is a delight, but the film loses its nerve in the final act.
The documentary asks hard questions and is honest enough to admit it cannot answer all of them.
I walked out after forty minutes and I do not regret it.
The chemistry between the two leads is real, and it carries the film through its weaker moments.
A gripping courtroom drama that keeps you guessing until the very last scene.
The special effects are impressive but they cannot hide how little happens in the story.
This is a film about grief that somehow manages to be joyful, and that is a rare thing.
The editing is so frantic that it is often impossible to tell what is going on.
He plays the tired detective with a quiet dignity that makes the familiar plot feel fresh.
The movie is too long by at least half an hour, and most of that half hour is in the middle.
It is the funniest film I have seen in years, and the jokes keep coming right to the end.
The story is predictable, but the characters are so likable that I did not mind.
An honest, unsentimental portrait of a town that the rest of the country has forgotten.
The soundtrack is wonderful and I have been listening to it all week.
The film never explains why any of this is happening, and I suspect the writers did not know.
It is a thoughtful and moving film that stays with you long after the credits roll.
The child actors are natural and convincing, which is harder to achieve than it looks.
I admired the ambition of this film more than I enjoyed watching it.
The horror scenes are effective, but the long stretches between them are dull.
Every actor seems to be in a different movie, and none of those movies is very good.
The film captures the feeling of a hot summer in a small city with remarkable precision.
What a waste of a great cast and a promising idea.
The final twist is clever, and it makes you want to watch the whole thing again.
This is not a perfect film, but it is an honest one, and I will take honest over perfect.
The pacing is uneven and the tone lurches from slapstick to tragedy without warning.
She gives a fierce, funny, unforgettable performance as a woman who refuses to be ignored.
The movie is a loving tribute to the old adventure serials, and it is great fun.
The plot holes are big enough to drive a truck through, and the film drives several trucks through them.
A quiet masterpiece about memory, loss, and the small kindnesses that hold a life together.
The jokes are mean spirited and the characters are impossible to like.
It is a gentle, charming film that children and parents will both enjoy.
The battle scenes are well staged, but the story between them is clumsy and slow.
I found the ending confusing, but my friends loved it, so perhaps the fault is mine.
The script is full of clever lines that the actors deliver with perfect timing.
The film wants to be profound but it mostly ends up being pretentious.
This is the best adaptation of the novel so far, and it is faithful without being slavish.
The lead actor is miscast, and he seems to know it.
An exhilarating ride from start to finish, with a score that makes your heart race.
The story meanders and the characters never become more than sketches.
It is a brave film that takes real risks, and most of them pay off.
I cannot recommend this movie to anyone, not even to fans of the director.
The film is beautifully shot, tightly edited, and wonderfully acted.
The humour is crude and repetitive, and it wears thin after the first ten minutes.
A tender and intelligent love story for adults, which is rarer than it should be.
The movie has a great premise and does almost nothing with it.
The supporting cast is full of familiar faces, and every one of them is given something to do.
It is a thriller without thrills and a mystery without a mystery.
The film shows us a world we rarely see on screen, and it does so with care and respect.
The music swells every time the film wants us to feel something, which is often.
I was moved by the way the film treats its older characters with dignity and wit.
The plot is so convoluted that even the characters seem confused by it.
A triumph of style over substance, and the style is not even that good.
The film ends exactly where it should, and not a moment later.
There are moments of real beauty here, but they are buried under a lot of noise.
The performances are strong, the story is compelling, and the ending is perfect.
This is a film that mistakes cruelty for honesty and shock for insight.
The movie is funny, sad, and wise, often in the same scene.
The director keeps the camera at a distance, and we never get close to anyone.
It is a crowd pleaser in the best sense, smart and warm and generous.
The film feels like an unfinished draft of a much better movie.
Her comic timing is superb, and she steals every scene she is in.
The war scenes are harrowing and the quiet scenes are even more so.
I kept checking my watch, and the film kept going for another hour.
The story is simple, but it is told with such conviction that it feels new.
The dialogue sounds like it was translated badly from another language.
A wonderful cast brings real depth to characters who could have been stereotypes.
The film is a mess, but it is a fascinating mess, and I was never bored.
The mystery is solved too early, and the last act has nowhere to go.
It is one of those rare films that gets better every time you see it.
The effects are cheap, the acting is wooden, and the plot makes no sense.
The movie finds humour in unexpected places and never makes fun of its characters.
A sprawling family saga that covers three generations without ever feeling rushed.
The film is so concerned with being clever that it forgets to be entertaining.
He brings a surprising vulnerability to a role that could easily have been a cartoon.
The first scene is brilliant, and nothing that follows comes close to it.
This is a smart, funny, and surprisingly touching film about friendship.
The characters talk and talk and talk, but they never say anything interesting.
The film is a visual feast, with colours that leap off the screen.
I left the cinema smiling, and I was still smiling the next morning.
The story is told out of order for no good reason, and it is hard to follow.
The film treats a difficult subject with intelligence and compassion.
It is loud, stupid, and far too long, and I suspect it will make a fortune.
The two leads have wonderful chemistry, and their scenes together are a joy.
The plot is borrowed from a dozen better films and the borrowing shows.
A haunting, beautiful film that lingers in the mind like a half remembered dream.
The comedy is broad and the drama is heavy handed, and neither works.
She is magnetic on screen, and the camera clearly loves her.
The movie takes its time, but the payoff is worth every minute of the wait.
The script is a collection of clichés held together by a very loud soundtrack.
It is a joyful celebration of music, dancing, and the people who make them.
The film loses its way in the middle, but it recovers in a strong final act.
There is not a single believable moment in the entire film.
The film is as funny as it is sad, and it is very sad indeed.
The director handles the action scenes with skill, but the quieter moments fall flat.
This is a movie that respects its audience, and the audience will respect it back.
The characters are thin, the story is thinner, and the jokes are thinnest of all.
It is a deeply felt film about the ties that bind a family together and the ones that break.
The film is visually inventive, but it is hard to care about anyone in it.
I was surprised by how much I enjoyed this film, and how often I laughed.
The ending is rushed, as if the makers had run out of money or patience.
A sharp satire that hits its targets with precision and wit.
The story drags, the dialogue is flat, and the climax is an anticlimax.
It is a heartfelt film with a message that never becomes preachy.
The movie is so dark that I often could not see what was happening on the screen.
The acting is superb across the board, and the direction is confident and clear.
The film is a pleasant way to spend two hours, and not much more than that.
His performance is so good that it makes the rest of the film look worse by comparison.
The plot is full of coincidences that strain belief to breaking point.
This is a lovely, gentle film that will make you want to call your mother.
The film is an endurance test, and I failed it.
The writers clearly love these characters, and by the end so did I.
A stylish thriller with a clever plot and a terrific central performance.
The film has nothing new to say and says it at great length.
It is a rich, complex, and rewarding film that deserves to be seen on the big screen.
The story is confusing and the characters are hard to tell apart.
The film is a celebration of ordinary people doing extraordinary things.
The jokes land more often than they miss, and the cast is clearly having fun.
It is a disappointing film from a director who has done much better work.
The movie is a delight from beginning to end, and the ending is especially sweet.
The screenplay is clumsy, the direction is flat, and the performances are uneven.
A powerful and necessary film about a chapter of history that many would rather forget.
The film tries to do too much and ends up doing very little well.
She brings warmth and humour to a character who could have been merely tragic.
The action is relentless, and after a while it becomes numbing.
It is a small, perfect film, and I would not change a single frame of it.
The characters are so unpleasant that I was glad when the film was over.
The film is a loving portrait of a neighbourhood and the people who call it home.
The story has a few good ideas, but the film does not know what to do with them.
It is a rousing adventure with a big heart and a sense of humour about itself.
The director has made a film that is both intimate and epic, which is no small feat.
The pacing is glacial and the payoff is minimal.
The film is brave, honest, and unforgettable, and it will stay with me for a long time.
Nothing about this movie works, from the casting to the costumes to the script.
It is a charming comedy with a clever premise and a cast that makes the most of it.
The film is beautifully made, but it is also cold and distant.
The young lead gives a remarkable performance that holds the whole film together.
The twists are easy to guess, and the film takes far too long to reveal them.
It is a moving and often very funny film about growing old with grace.
The movie is a jumble of scenes that never add up to a story.
The film is full of life, colour, and music, and it is impossible not to enjoy it.
The second half of the film is much better than the first, but the first is very slow.
A gripping, intelligent thriller that never talks down to its audience.
The film is so earnest that it becomes unintentionally funny.
It is a film of great beauty and great sadness, and I was deeply moved by it.
The dialogue is stilted and the performances are stiff, and the film never comes alive.
The movie is a fun, fast, and frequently hilarious ride.
The story is told with great economy, and not a scene is wasted.
The film has a few good moments, but they are lost in a sea of tedium.
It is an uplifting story about a teacher who changes the lives of her students.
The film is a confused and confusing attempt at a science fiction epic.
The cast is terrific, and the script gives each of them a moment to shine.
The film never decides whether it is a comedy or a drama, and it fails as both.
It is a triumph, a film that is as entertaining as it is important.
The movie is predictable from the first scene to the last, but it is also very enjoyable.
The film is too polite to be truly funny and too shallow to be truly moving.
A wise and generous film about the things we owe to each other.
The lead performance is hollow, and the film has a hole at its centre.
It is a wonderful film for the whole family, with jokes for every age.
The story is slight, but the film is so well made that it hardly matters.
The movie wastes a great setting on a dull and predictable story.
The film is a small miracle of tone, balancing comedy and tragedy with ease.
The characters are cardboard cutouts, and the plot is a paint by numbers affair.
It is a gorgeous, dreamy film that works best if you let it wash over you.
The film is so long and so slow that I almost fell asleep twice.
The actors are clearly committed, but the material lets them down.
It is a bold and original film that announces a major new talent.
The film tells a true story, and it tells it with care, restraint, and respect.
The jokes are old, the plot is older, and the film feels ancient.
A witty, warm, and wonderfully acted comedy of manners.
The film has style to spare, but the story is not strong enough to support it.
It is the rare sequel that is better than the original in almost every way.
The movie is a chore to sit through, and I cannot imagine watching it again.
The film is full of small, precise observations about how people really behave.
The climax is loud and chaotic, and it undoes much of the good work that came before.
It is a deeply satisfying film with a perfect final scene.
The film is earnest, well meaning, and almost completely lifeless.
The cast is wonderful, and the film gives them room to breathe.
The movie is a noisy, empty spectacle that left me cold.
It is a tough, unflinching film that does not offer easy answers.
The story is slight and the running time is long, which is not a good combination.
The film is a beautiful and sad meditation on the passing of time.
The comedy falls flat because the characters are not funny, only loud.
It is a film of quiet power, and its final image is unforgettable.
The film is packed with ideas, and most of them are good ones.
The direction is competent but unimaginative, and the film feels generic.
It is an utterly charming film, and its charm never feels forced.
The movie is a string of set pieces with nothing to connect them.
The film is a perfect example of how to make a thriller on a small budget.
The lead actress is luminous, and the film is worth seeing for her alone.
It is a confused film that seems to have been assembled from several different scripts.
The film is a heartfelt tribute to the power of friendship and loyalty.
The movie is dull when it should be exciting and silly when it should be serious.
It is a film that will make you laugh and think in equal measure.
The plot is absurd, but the film plays it with such conviction that it works.
The story never builds any momentum, and the ending is a shrug.
It is a thoughtful, beautifully acted drama about a marriage in crisis.
The film is a tedious exercise in style, with no emotional core at all.
The humour is gentle and the characters are lovable, and the film is a pleasure.
The movie is an overlong, overwrought, and overacted melodrama.
It is a visually stunning film with a story that is just as strong.
The film is a rare thing, a blockbuster with a brain and a heart.
The script is weak and the direction is weaker, and the actors are stranded.
It is a lovely film about learning to let go of the past.
The film is a jumble of genres, and none of them is done well.
The performances are natural and unforced, and the story feels true.
It is a gripping film that holds your attention from the first frame to the last.
The movie is a bland and forgettable comedy with a few good jokes.
The film is a delicate, funny, and deeply moving portrait of a friendship.
The story is too familiar, and the film does nothing to make it fresh.
It is a spectacular film, full of wonder and invention.
The film is clumsy, preachy, and far too pleased with itself.
The cast is excellent, and the film is a reminder of how good they can be.
It is a sad and beautiful film that I will not soon forget.
The movie is a mess of half baked ideas and underwritten characters.
The film is a sharp and funny look at the absurdities of modern life.
The story is gripping, but the film is let down by a weak ending.
It is a film of great warmth and humour, with a wonderful central performance.
The film is a dreary slog through familiar territory.
The director brings a fresh eye to a familiar story, and the result is a delight.
It is a slick, entertaining thriller that does exactly what it sets out to do.
The movie is a muddled, incoherent, and ultimately pointless exercise.
The film is a tender and funny story about first love.
The acting is fine, but the script is full of holes.
It is a masterpiece of suspense, and I was on the edge of my seat throughout.
The film is a slow, ponderous, and self important drama.
The characters are vivid and the story is compelling, and the film is a triumph.
It is a pleasant, undemanding comedy that will be forgotten in a week.
The film is a remarkable achievement, and one of the best of the year.
The movie is an assault on the senses and an insult to the intelligence.
The film is a wonderful showcase for a talented young cast.
The story is muddled and the pacing is off, but the film has its moments.
It is a beautifully observed film about the rhythms of everyday life.
The film is a loud and brash comedy that is never as funny as it thinks it is.
The performances are the best reason to see this uneven but interesting film.
It is a warm, wise, and witty film that is a pleasure from start to finish.
The film is an unpleasant experience, and not in an interesting way.
The movie is a smart and stylish update of a classic story.
The film is full of heart, and it wears that heart proudly on its sleeve.
The plot is a series of contrivances, and the characters are puppets.
It is a film that celebrates the messiness of life, and it is wonderful.
The film is a cold and calculated piece of work that never engages the emotions.
The story is a little thin, but the film is so charming that it does not matter.
It is a deeply moving film about a father and son who learn to understand each other.
The film is an ambitious failure, but it is more interesting than many successes.
The movie is a joyless and mechanical piece of entertainment.
The film is a wonderful surprise, funny and touching and smart.
The direction is assured and the performances are superb, and the film is a must see.
It is a tedious, overlong, and self indulgent film.
The film is a fascinating study of a complex and contradictory man.
The movie is a feel good film that actually makes you feel good.
The story is nonsense, but the film is so entertaining that I did not care.
It is a film that asks big questions and is not afraid to leave them open.
The film is a gentle comedy with a sharp edge, and it is very funny.
The acting is wooden, the plot is ridiculous, and the ending is a cheat.
It is a superb film, intelligent and exciting and beautifully made.
The film is a mess from beginning to end, and the end cannot come soon enough.
The movie is a sweet and funny story about an unlikely friendship.
The film is a powerful drama with a message that is all too relevant today.
The story is predictable, but the film is well acted and well made.
It is a flat and lifeless film that never justifies its existence.
The film is an enchanting fairy tale for children and adults alike.
The characters are engaging, the story is involving, and the film is a success.
It is a clumsy film that wastes a good cast on a bad script.
The film is a brilliant piece of work, and the director is one to watch.
The movie is an empty exercise in style that left me unmoved.
The film is a heartwarming story of courage and hope in difficult times.
It is a lively, funny, and thoroughly enjoyable film.
The film is a dull and lifeless thriller with no surprises.
The performances are wonderful, and the film is a moving experience.
It is a film that is hard to watch but even harder to forget.
The film is a charming and funny look at family life.
The movie is a tiresome and predictable romantic comedy.
The film is a stunning achievement, and a film for the ages.
"""

#: The corpus, one review per line (305 lines, 9 to 22 words; whitespace-tokenised by default).
SENTENCES: tuple[str, ...] = tuple(line for line in _TEXT.splitlines() if line.strip())

#: Identifier recorded in results that use this corpus.
NAME = "petheory-builtin-reviews-v1"


if __name__ == "__main__":  # python -m petheory.data.corpus > reviews.txt
    print("\n".join(SENTENCES))


def python_reference_sentences() -> list[str]:
    """Real English prose that ships with every CPython: the sentences of ``pydoc_data.topics``.

    ``pydoc_data.topics`` holds the Language Reference's topic texts used by ``help()`` (PSF licence), 2,530 sentences.
    Paragraphs are split into sentences at ``.``, ``!`` or ``?`` followed by white space; code (lines with ``>>>`` or
    ``::``), and sentences of fewer than 5 words or not starting with a capital letter are left out. Deterministic:
    topics in sorted order. A second real-text target beside :data:`SENTENCES` (which is hand-written and too small to
    tell encodings apart).

    Returns
    -------
    list of str
        The sentences, in topic order.

    Examples
    --------
    >>> s = python_reference_sentences()
    >>> len(s) > 1000 and all(x[0].isupper() and len(x.split()) >= 5 for x in s)
    True
    """
    import re

    from pydoc_data.topics import topics

    out = []
    for key in sorted(topics):
        for para in re.split(r"\n\s*\n", topics[key]):
            text = " ".join(para.split())
            if not text or not text[0].isalpha() or "::" in text or ">>>" in text:
                continue
            out += [s for s in re.split(r"(?<=[.!?])\s+", text) if len(s.split()) >= 5 and s[0].isupper()]
    return out
