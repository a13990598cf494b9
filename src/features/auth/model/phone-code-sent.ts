/**
 * Where the last phone code went (the registration's reply or a resend's), for the phone
 * verification screen to say so. Unknown after a reload: the screen then names the channels the
 * account's security setting chooses from, never the phone by default.
 */
import type { CodeSentReply } from "@contract";
import { atom } from "jotai";

export const phoneCodeSentAtom = atom<Pick<CodeSentReply, "channel" | "destination"> | null>(null);
