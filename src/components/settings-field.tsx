/** A short confirmation under a Settings section's submit once the change is saved. */
export function SectionSaved({ text }: { text: string | null }) {
  return (
    <p className="settings-saved" role="status" data-testid="form-success">
      {text ?? ""}
    </p>
  );
}
