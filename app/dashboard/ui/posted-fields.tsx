"use client";

import { createContext, useContext, type ComponentProps } from "react";

/** What a refused form's fields held when posted (FormState's `posted`), for ActionForm to hand its fields. */
export const PostedFields = createContext<Record<string, string> | undefined>(undefined);

/** What the field named `name` shows first: what was posted in it when its form was refused, or `defaultValue`. */
function usePostedOr<T>(name: string, defaultValue: T): string | T {
  return useContext(PostedFields)?.[name] ?? defaultValue;
}

export function PostedInput({ name, defaultValue, ...props }: ComponentProps<"input"> & { name: string }) {
  return <input name={name} defaultValue={usePostedOr(name, defaultValue)} {...props} />;
}

export function PostedTextarea({ name, defaultValue, ...props }: ComponentProps<"textarea"> & { name: string }) {
  return <textarea name={name} defaultValue={usePostedOr(name, defaultValue)} {...props} />;
}

export function PostedSelect({ name, defaultValue, ...props }: ComponentProps<"select"> & { name: string }) {
  return <select name={name} defaultValue={usePostedOr(name, defaultValue)} {...props} />;
}
