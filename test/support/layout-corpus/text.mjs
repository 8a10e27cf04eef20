// Seeded randomness and the words the generated pages are written in. The
// PRNG is mulberry32: tiny, fast and the same on every machine, so a seed
// names one document forever (the cache key is the generator's source).

export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  const chance = (p) => next() < p;
  return { next, int, pick, chance, float: (lo, hi) => lo + next() * (hi - lo) };
}

// Common English words: prose that reads like prose to a layout engine
// (word lengths, capitals after full stops), with no meaning to learn from.
const EN = `
ability account action activity addition advice agency air analysis animal answer approach area argument art article aspect attempt
attention audience author balance basis bed behaviour benefit bird blood board body book border box branch bridge budget building
business capital car card care career case cell centre century chance change chapter character choice church city claim class climate
coast code colour committee community company comparison computer concept condition conference context contract control country course
court culture customer data decade decision degree demand design detail development difference direction discussion disease distance
document doubt economy edge education effect effort election element energy engine environment error estimate event evidence example
experience expert factor failure family feature field figure film finding fire flight focus force forest form frame function future
game garden glass goal government ground group growth guide habit half hand health heart height history hole horse hospital hotel house
idea image impact income industry influence information instance interest island issue item journey judgement key kind kitchen knowledge
labour lake land language law layer leader length letter level library light limit line list machine manager map market material matter
measure meeting member memory message method middle minute model moment money month morning motion mountain movement music nation nature
network news night noise north number object office opinion option order organisation origin output owner page paper parent part party
pattern payment people period person picture piece place plan plant player point policy position power practice pressure price problem
process product programme project property proposal purpose quality question range rate reason record region relation report research
resource response result river road role room route rule safety sample scale scene school science screen season second section sector
series service session shape share side signal site size skill society software soil solution sound source space speech stage standard
state station step stone story strategy street structure student study style subject success summer supply surface system table target
task teacher team term test text theory thing thought time tool topic town trade training transport treatment tree trial type unit user
valley value variety version view village voice volume water wave week weight window winter wood word work world writer year
across after against along among around before behind below beneath beside between beyond during inside near through toward under upon within
`
  .split(/\s+/)
  .filter(Boolean);

const VERBS = `accepts adds allows avoids becomes builds carries changes checks covers creates defines depends describes develops draws enters
explains finds follows gives holds improves includes keeps leads leaves limits makes marks meets moves needs offers opens places produces
provides reaches reduces remains requires returns runs serves sets shows shapes starts supports takes tells turns uses follows`
  .split(/\s+/)
  .filter(Boolean);

const LINKS = ["the", "a", "of", "and", "in", "to", "for", "with", "on", "by", "as", "at", "from", "that", "its", "each", "this", "every"];

const cap = (w) => w[0].toUpperCase() + w.slice(1);

export function sentence(r, min = 8, max = 20) {
  const n = r.int(min, max);
  const out = [];
  for (let i = 0; i < n; i++) {
    const slot = i % 4;
    out.push(slot === 1 ? r.pick(VERBS) : slot === 2 ? r.pick(LINKS) : r.pick(EN));
  }
  if (n > 10 && r.chance(0.4)) out[Math.floor(n / 2)] += ",";
  return `${cap(out.join(" "))}.`;
}

export function paragraph(r, min = 2, max = 5) {
  return Array.from({ length: r.int(min, max) }, () => sentence(r)).join(" ");
}

export function title(r, min = 2, max = 5) {
  return Array.from({ length: r.int(min, max) }, (_, i) => (i > 0 && r.chance(0.25) ? r.pick(LINKS) : cap(r.pick(EN)))).join(" ");
}

export const word = (r) => r.pick(EN);
export const capWord = (r) => cap(r.pick(EN));

// Arabic and Hebrew words for right-to-left pages (common nouns and particles).
const AR = `في من على إلى عن مع هذا هذه التي الذي كان يكون بين بعد قبل حول خلال كل بعض أكثر المدينة الكتاب العلم البحث الدراسة
المجتمع التاريخ اللغة الثقافة الطريق البيت المدرسة الجامعة الحكومة الاقتصاد الطاقة الماء الأرض السماء البحر الجبل النهر الشمس القمر
الوقت اليوم الليل الصباح المساء العمل الفكرة النتيجة الطريقة المشروع البرنامج النظام الشركة السوق العالم الإنسان الطفل المعلم الطالب
الصورة الرسالة الكلمة الصفحة الفصل القسم السؤال الجواب الحل المشكلة القرار الخطة الهدف الموضوع المكان الزمان الصحة الطب الدواء
يكتب يقرأ يعمل يدرس يبني يفتح يرى يعرف يجد يأخذ يعطي يقدم يشرح يحمل`
  .split(/\s+/)
  .filter(Boolean);

const HE = `של את על עם אל מן זה זאת אשר כי גם רק כל בין אחרי לפני בתוך העיר הספר המדע המחקר הלימוד החברה ההיסטוריה השפה התרבות
הדרך הבית בית הספר האוניברסיטה הממשלה הכלכלה האנרגיה המים הארץ השמים הים ההר הנהר השמש הירח הזמן היום הלילה הבוקר הערב העבודה
הרעיון התוצאה השיטה הפרויקט התוכנית המערכת החברה השוק העולם האדם הילד המורה התלמיד התמונה המכתב המילה הדף הפרק הסעיף השאלה
התשובה הפתרון הבעיה ההחלטה התכנית המטרה הנושא המקום הבריאות כותב קורא עובד לומד בונה פותח רואה יודע מוצא לוקח נותן מציג מסביר`
  .split(/\s+/)
  .filter(Boolean);

export function rtlSentence(r, lang, min = 8, max = 18) {
  const list = lang === "ar" ? AR : HE;
  const n = r.int(min, max);
  return `${Array.from({ length: n }, () => r.pick(list)).join(" ")}.`;
}

export function rtlParagraph(r, lang, min = 2, max = 4) {
  return Array.from({ length: r.int(min, max) }, () => rtlSentence(r, lang)).join(" ");
}

export function rtlTitle(r, lang, min = 2, max = 4) {
  const list = lang === "ar" ? AR : HE;
  return Array.from({ length: r.int(min, max) }, () => r.pick(list)).join(" ");
}

export const escapeHtml = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
