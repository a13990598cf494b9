import { Select } from "./select";

/**
 * A list filter (the form kit, docs/decisions.md#the-form-kit): "All" first, then each value; choosing "All"
 * clears the filter. The currency, status and type filters of the operations, refills and withdrawals are this
 * one select.
 */
export function FilterSelect<V extends string>({
  name,
  label,
  allLabel,
  value,
  options,
  optionLabel = (option) => option,
  onChange,
}: {
  name: string;
  label: string;
  allLabel: string;
  value: V | undefined;
  options: readonly V[];
  optionLabel?: (option: V) => string;
  onChange(value: V | undefined): void;
}) {
  return (
    <Select
      header={label}
      name={name}
      value={value ?? ""}
      onChange={(event) => onChange((event.target.value || undefined) as V | undefined)}
    >
      <option value="">{allLabel}</option>
      {options.map((option) => (
        <option key={option} value={option}>
          {optionLabel(option)}
        </option>
      ))}
    </Select>
  );
}
