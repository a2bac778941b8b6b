"use client";

import { createContext, useContext, type ComponentProps } from "react";

/** What a refused form's fields held when posted (FormState's `posted`), for ActionForm to hand its fields. */
export const PostedFields = createContext<Record<string, string> | undefined>(undefined);

/** A text input that shows what was posted in it when its form was refused, and otherwise `defaultValue`. */
export function PostedInput({ name, defaultValue, ...props }: ComponentProps<"input"> & { name: string }) {
  const posted = useContext(PostedFields)?.[name];
  return <input name={name} defaultValue={posted ?? defaultValue} {...props} />;
}

/** A textarea that shows what was posted in it when its form was refused, and otherwise `defaultValue`. */
export function PostedTextarea({ name, defaultValue, ...props }: ComponentProps<"textarea"> & { name: string }) {
  const posted = useContext(PostedFields)?.[name];
  return <textarea name={name} defaultValue={posted ?? defaultValue} {...props} />;
}

/** A select that shows what was posted in it when its form was refused, and otherwise `defaultValue`. */
export function PostedSelect({ name, defaultValue, ...props }: ComponentProps<"select"> & { name: string }) {
  const posted = useContext(PostedFields)?.[name];
  return <select name={name} defaultValue={posted ?? defaultValue} {...props} />;
}
