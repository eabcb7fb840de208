// The player's settings, kept in this browser (localStorage): card size, the four-colour
// deck, sound and vibration on your turn, animation speed. Applied as classes on <html>
// (the style sheet sizes and colours the cards) and read by the turn and motion modules.

export type Size = "small" | "medium" | "large";
export type Speed = "off" | "slow" | "normal" | "fast";

export interface Settings {
  size: Size;
  four: boolean;
  sound: boolean;
  vibrate: boolean;
  speed: Speed;
}

const KEY = "tricktable.settings";
const DEFAULTS: Settings = { size: "medium", four: false, sound: false, vibrate: false,
                             speed: "normal" };
const SIZES: Size[] = ["small", "medium", "large"];
const SPEEDS: Speed[] = ["off", "slow", "normal", "fast"];

/** The stored settings (any missing or unreadable one at its default). */
export function loadSettings(): Settings {
  let stored: Partial<Settings> = {};
  try {
    stored = JSON.parse(localStorage.getItem(KEY) ?? "{}") as Partial<Settings>;
  } catch {
    stored = {};
  }
  return {
    size: SIZES.includes(stored.size as Size) ? stored.size as Size : DEFAULTS.size,
    four: typeof stored.four === "boolean" ? stored.four : DEFAULTS.four,
    sound: typeof stored.sound === "boolean" ? stored.sound : DEFAULTS.sound,
    vibrate: typeof stored.vibrate === "boolean" ? stored.vibrate : DEFAULTS.vibrate,
    speed: SPEEDS.includes(stored.speed as Speed) ? stored.speed as Speed : DEFAULTS.speed,
  };
}

export function saveSettings(settings: Settings): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // a browser that keeps nothing (private mode, storage full): the settings last the visit
  }
  applySettings(settings);
}

export function applySettings(settings: Settings): void {
  const root = document.documentElement;
  for (const size of SIZES) root.classList.toggle(`cards-${size}`, settings.size === size);
  root.classList.toggle("four", settings.four);
}

export const SIZE_CHOICES = SIZES;
export const SPEED_CHOICES = SPEEDS;
